import { describe, expect, it } from 'vitest';
import { CONTACT_EXAMPLE } from '../../src/kernel/schemas/examples.ts';
import { expectApiError, postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, useTestApp, validContact } from '../helpers/app.ts';

/*
 * docs/reliability.md, "Hostile input" (MCP): one JSON-RPC message per POST, so a tool call counts
 * like a REST request; listings served from one serialisation; JSON nested too deep refused before
 * it is parsed; a refused tool call costs no more than twice the REST refusal.
 */
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const toolCall = (id: number, email: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'submit_contact_request', arguments: { ...validContact, EMAIL: email } },
});
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('a JSON-RPC batch on /mcp', () => {
  const t = useTestApp({ env: { DELIVERY: 'queued' } });

  it('is refused whole with Invalid Request (-32600): none of its 100 calls journals a lead', async () => {
    const batch = Array.from({ length: 100 }, (_, i) => toolCall(i, `pv+${i}@example.fr`));
    const response = await postJson(t.app, '/mcp', batch, MCP_HEADERS);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(await t.store.list()).toHaveLength(0);
  });

  it('tools/list answers the same bytes to every request, under its own id', async () => {
    const list = (id: number) =>
      postJson(t.app, '/mcp', { jsonrpc: '2.0', id, method: 'tools/list' }, MCP_HEADERS);
    const [first, second] = [await list(1), await list(2)];
    expect(first.json()).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
    expect(second.body).toBe(first.body.replace('"id":1}', '"id":2}'));
  });
});

describe('one tool call per POST, counted by the REST limit', () => {
  it('40 calls in a minute from one address journal at most RATE_LIMIT_PER_MINUTE leads', async () => {
    const limited = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '30', DELIVERY: 'queued' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const response = await postJson(
          limited.app,
          '/mcp',
          toolCall(i, `p${i}@example.fr`),
          MCP_HEADERS,
        );
        statuses.push(response.statusCode);
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(30);
      expect(statuses.slice(30)).toEqual(Array(10).fill(429));
      expect(await limited.store.list()).toHaveLength(30);
    } finally {
      await limited.close();
    }
  });
});

describe('JSON nesting depth (docs/reliability.md: at most 32 levels)', () => {
  const t = useTestApp();

  it('REST: arrays nested 32,000 deep are a 400 invalid_json naming the limit', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: nested(32_000),
    });
    expect(expectApiError(response, 400, 'invalid_json').message).toMatch(/32 niveaux/);
  });

  it('MCP: the same body on /mcp is the same 400', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { 'content-type': 'application/json', ...MCP_HEADERS },
      payload: nested(33),
    });
    expect(expectApiError(response, 400, 'invalid_json').message).toMatch(/32 niveaux/);
  });

  it('brackets inside a string are text, not depth: the lead is accepted', async () => {
    const demande = `${nested(200)} "\\"[[[[" {{{{`;
    const response = await postJson(t.app, '/api/contact', {
      ...CONTACT_EXAMPLE,
      DEMANDE: demande,
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('CPU of a refused tool call', () => {
  const t = useTestApp();

  it('stays within twice the REST refusal of the same body (blocks alternated, best block each)', async () => {
    const rest = () => postJson(t.app, '/api/contact', { EMAIL: 'x' });
    const mcp = () =>
      postJson(
        t.app,
        '/mcp',
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'submit_contact_request', arguments: { EMAIL: 'x' } },
        },
        MCP_HEADERS,
      );
    expect((await mcp()).json()).toMatchObject({ result: { isError: true } });
    const block = async (run: () => Promise<unknown>) => {
      const start = process.cpuUsage();
      for (let i = 0; i < 50; i++) await run();
      await new Promise((resolve) => setImmediate(resolve));
      const used = process.cpuUsage(start);
      return used.user + used.system;
    };
    await block(rest);
    await block(mcp);
    const costs = { rest: Infinity, mcp: Infinity };
    for (let round = 0; round < 6; round++) {
      costs.rest = Math.min(costs.rest, await block(rest));
      costs.mcp = Math.min(costs.mcp, await block(mcp));
    }
    expect(costs.mcp / costs.rest).toBeLessThan(2);
  });
});
