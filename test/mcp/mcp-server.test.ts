import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_KINDS } from '../../src/kernel/schemas/lead-kinds.ts';
import { SECTORS } from '../../src/kernel/schemas/sectors.ts';
import {
  AUDIT_EXAMPLE,
  CONTACT_EXAMPLE,
  DIAGNOSTIC_EXAMPLE,
} from '../../src/kernel/schemas/examples.ts';
import type { ErrorResponse } from '../../src/kernel/schemas/responses.ts';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';

/* docs/agents.md: /mcp speaks MCP (Streamable HTTP, stateless) through the same intake as /api/*. */
let site: TestSite;
let t: TestApp;
let base: string;
let client: Client;
beforeAll(async () => {
  site = await buildTestSite();
  t = await buildTestApp({ siteDir: site.dir });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await t.close();
  site.remove();
});

async function connect(): Promise<Client> {
  const connected = new Client({ name: 'leadgate-test', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  return connected;
}
beforeAll(async () => {
  client = await connect();
});
afterAll(() => client.close());

const call = async (name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

async function journaled(email: string) {
  return (await t.store.list()).filter(({ lead }) =>
    JSON.stringify(lead.data).includes(`"${email}"`),
  );
}

function textOf(content: object | undefined): string {
  expect(content).toHaveProperty('text');
  return (content as { text: string }).text;
}

describe('tools and resources', () => {
  it('lists the three lead tools, each with its REST endpoint’s own schema, and the privacy request', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'request_privacy_action',
      'submit_contact_request',
      'submit_sector_audit',
      'subscribe_newsletter',
    ]);
    for (const endpoint of LEAD_KINDS) {
      const tool = tools.find((candidate) => candidate.name === endpoint.tool.name)!;
      const rest = endpoint.schema as unknown as { properties: object };
      expect(tool.inputSchema.properties).toEqual({
        ...rest.properties,
        idempotency_key: expect.objectContaining({ type: 'string' }),
      });
      // French (the endpoint's description) and English.
      expect(tool.description).toContain(endpoint.description);
      expect(tool.description).toMatch(/English: .*consent/);
    }
  });

  it('lists the service pages and every sector’s questionnaire; a questionnaire reads as /secteurs/<sector>.json', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    for (const sector of SECTORS) {
      expect(uris).toContain(`http://localhost:3000/secteurs/${sector}.json`);
    }
    expect(uris.filter((uri) => uri.includes('/services')).length).toBeGreaterThanOrEqual(4);
    const { contents } = await client.readResource({
      uri: 'http://localhost:3000/secteurs/btp.json',
    });
    const published = await (await fetch(`${base}/secteurs/btp.json`)).text();
    expect(JSON.parse(textOf(contents[0]))).toEqual(JSON.parse(published));
    const service = resources.find((resource) => resource.mimeType === 'text/markdown')!;
    const read = await client.readResource({ uri: service.uri });
    expect(textOf(read.contents[0])).toMatch(/^# /);
  });
});

describe('valid calls go through the REST intake', () => {
  it('submit_contact_request (full and short) succeeds and is journaled with an mcp consent record', async () => {
    const result = await call('submit_contact_request', {
      ...CONTACT_EXAMPLE,
      EMAIL: 'mcp-contact@example.fr',
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ success: true });
    const [entry] = await journaled('mcp-contact@example.fr');
    expect(entry!.status).toBe('delivered');
    expect(entry!.lead.kind).toBe('contact');
    expect(entry!.lead.consent).toMatchObject({ channel: 'mcp' });
    const short = await call('submit_contact_request', {
      ...DIAGNOSTIC_EXAMPLE,
      EMAIL: 'mcp-short@example.fr',
    });
    expect(short.structuredContent).toMatchObject({ success: true });
  });

  it('subscribe_newsletter twice: existing false, then true (spec 4.2)', async () => {
    const args = { email: 'mcp-lettre@example.fr', firstName: 'Léa' };
    expect((await call('subscribe_newsletter', args)).structuredContent).toMatchObject({
      success: true,
      existing: false,
      confirmation: 'sent',
    });
    // The same arguments again are the same lead: nothing more leaves (docs/consent.md).
    expect((await call('subscribe_newsletter', args)).structuredContent).toMatchObject({
      success: true,
      existing: true,
      confirmation: 'already_sent',
    });
    // Another request for the same pending address within 24 hours: the link already went.
    expect(
      (await call('subscribe_newsletter', { ...args, source: 'assistant' })).structuredContent,
    ).toMatchObject({ success: true, existing: true, confirmation: 'already_sent' });
    // The same body again within 24 h is the same lead, as over REST (docs/delivery.md).
    expect(await journaled('mcp-lettre@example.fr')).toHaveLength(2);
  });

  it('submit_sector_audit files answers under the canonical questions, like REST', async () => {
    const formData = Object.fromEntries(
      Object.entries(AUDIT_EXAMPLE.formData!).map(([q, a]) => [
        q.replace('\u00a0', ' ').replace('’', "'"),
        a,
      ]),
    );
    const result = await call('submit_sector_audit', {
      ...AUDIT_EXAMPLE,
      email: 'mcp-audit@example.fr',
      formData,
    });
    expect(result.structuredContent).toMatchObject({ success: true, existing: false });
    const [entry] = await journaled('mcp-audit@example.fr');
    expect(entry!.lead.kind === 'audit' && entry!.lead.data.formData).toEqual(
      AUDIT_EXAMPLE.formData,
    );
  });

  it('a retried call with the same idempotency_key journals once and answers the same', async () => {
    const args = {
      email: 'mcp-retry@example.fr',
      firstName: 'Léa',
      idempotency_key: crypto.randomUUID(),
    };
    const first = await call('subscribe_newsletter', args);
    const again = await (
      await connect()
    ).callTool({ name: 'subscribe_newsletter', arguments: args });
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(await journaled('mcp-retry@example.fr')).toHaveLength(1);
  });
});

describe('invalid calls are tool errors carrying the REST error', () => {
  const cases: [string, string, Record<string, unknown>, string, string][] = [
    ['missing fields', 'submit_contact_request', { PRENOM: 'Marie' }, 'missing_field', 'EMAIL'],
    [
      'lowercase email',
      'submit_contact_request',
      { ...CONTACT_EXAMPLE, EMAIL: undefined, email: 'x@example.fr' },
      'invalid_field',
      'email',
    ],
    [
      'malformed e-mail',
      'subscribe_newsletter',
      { email: 'pas-une-adresse', firstName: 'Léa' },
      'invalid_field',
      'email',
    ],
    [
      'sector outside the enum',
      'submit_sector_audit',
      { ...AUDIT_EXAMPLE, sector: 'BTP' },
      'invalid_field',
      'sector',
    ],
    [
      'bad idempotency_key',
      'subscribe_newsletter',
      { email: 'k@example.fr', firstName: 'Léa', idempotency_key: 'é' },
      'invalid_field',
      'idempotency_key',
    ],
  ];
  for (const [what, tool, args, code, field] of cases) {
    it(`${tool}: ${what} → ${code} on ${field}`, async () => {
      const body = JSON.parse(JSON.stringify(args)) as Record<string, unknown>;
      const result = await call(tool, body);
      expect(result.isError).toBe(true);
      const error = (result.structuredContent as ErrorResponse).error;
      expect(error).toMatchObject({ code, field });
      expect(error.hint.length).toBeGreaterThan(10);
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(
        result.structuredContent,
      );
      if (field === 'idempotency_key') return;
      // The very answer REST gives to the same body, but for the hint's words: a tool's caller
      // has arguments and the tool's input schema, not a JSON body's fields and /openapi.json
      // (docs/agents.md).
      const endpoint = LEAD_KINDS.find((e) => e.tool.name === tool)!;
      const rest = (await postJson(t.app, endpoint.path, body)).json() as ErrorResponse;
      const { hint, ...others } = error;
      const { hint: restHint, ...restOthers } = rest.error;
      expect(others).toEqual(restOthers);
      const fix = (text: string) => text.slice(0, text.indexOf('. ') + 1);
      expect(fix(hint)).toBe(
        fix(restHint)
          .replace('au corps JSON de la requête', 'aux arguments de l’outil')
          .replace('les champs', 'les arguments')
          .replace('le champ', 'l’argument'),
      );
      expect(hint).toMatch(/Le schéma d’entrée de l’outil \(tools\/list\) décrit chaque argument/);
      expect(hint).not.toMatch(/corps|champ|formulaire|openapi/i);
    });
  }

  it('a questionnaire answer beside formData: the hint moves it into the formData argument, never drops it', async () => {
    const question = 'Quel est votre métier principal\u00a0?';
    const args = {
      email: 'mcp-misplaced@example.fr',
      firstName: 'Paul',
      sector: 'btp',
      'Quel est votre métier principal ?': 'Couvreur',
    };
    const result = await call('submit_sector_audit', args);
    expect(result.isError).toBe(true);
    const error = (result.structuredContent as ErrorResponse).error;
    expect(error.field).toBe('Quel est votre métier principal ?');
    expect(error.hint).toMatch(/l’argument formData/);
    expect(error.hint).not.toMatch(/retirez/i);
    const fixed = JSON.parse(/corrigés : (\{.*\})/.exec(error.hint)![1]!) as Record<
      string,
      unknown
    >;
    const retried = await call('submit_sector_audit', fixed);
    expect(retried.isError).toBeFalsy();
    const [entry] = await journaled('mcp-misplaced@example.fr');
    expect((entry!.lead.data as { formData: object }).formData).toEqual({ [question]: 'Couvreur' });
  });

  it('an unknown argument: the hint names the accepted arguments, never fields of a form or body', async () => {
    const result = await call('subscribe_newsletter', {
      email: 'mcp-unknown@example.fr',
      firstName: 'Léa',
      ville: 'Lyon',
    });
    const error = (result.structuredContent as ErrorResponse).error;
    expect(error).toMatchObject({ code: 'invalid_field', field: 'ville' });
    expect(error.hint).toMatch(/^Les arguments acceptés sont « email »/);
    expect(error.hint).not.toMatch(/corps|champ|formulaire|openapi/i);
  });

  it('request_privacy_action: a missing argument is named as an argument of the tool', async () => {
    const result = await call('request_privacy_action', { kind: 'erasure' });
    const error = (result.structuredContent as ErrorResponse).error;
    expect(error).toMatchObject({ code: 'missing_field', field: 'email' });
    expect(error.hint).toMatch(/^Ajoutez l’argument « email » aux arguments de l’outil\./);
    expect(error.hint).not.toMatch(/corps|champ|formulaire|openapi/i);
  });

  it('nothing is journaled for a refused call', async () => {
    await call('subscribe_newsletter', { email: 'refused@example', firstName: 'Léa' });
    expect(await journaled('refused@example')).toHaveLength(0);
  });
});

describe('discovery and transport', () => {
  it('/.well-known/mcp/server-card.json names the endpoint, the tools and the resources (draft format)', async () => {
    const response = await fetch(`${base}/.well-known/mcp/server-card.json`);
    expect(response.status).toBe(200);
    const card = (await response.json()) as {
      $comment: string;
      description: string;
      transport: { endpoint: string };
      tools: { name: string }[];
      resources: { uri: string }[];
    };
    expect(card.$comment).toMatch(/SEP-1649/);
    expect(card.transport.endpoint).toBe('http://localhost:3000/mcp');
    expect(card.tools.map((tool) => tool.name).sort()).toEqual(
      [...LEAD_KINDS.map((e) => e.tool.name), 'request_privacy_action'].sort(),
    );
    expect(card.resources.length).toBeGreaterThanOrEqual(3);
    // What an agent reads first counts and names every tool it can call, as initialize says.
    expect(card.description).toBe(client.getInstructions());
  });

  it('the initialize instructions count and name every tool, the privacy request included', () => {
    const instructions = client.getInstructions()!;
    const names = [...LEAD_KINDS.map((e) => e.tool.name), 'request_privacy_action'];
    expect(instructions).toMatch(/^Quatre outils /);
    expect(instructions).toContain('Four tools');
    for (const name of names) expect(instructions).toContain(name);
  });

  it('GET /mcp is 405 (stateless: no stream to open), with Allow', async () => {
    const response = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('GET /mcp opened by hand says what the endpoint is and how to use it', async () => {
    const response = await fetch(`${base}/mcp`);
    expect(response.status).toBe(405);
    const { error } = (await response.json()) as ErrorResponse;
    expect(error.code).toBe('method_not_allowed');
    expect(error.message).toMatch(/serveur MCP \(Streamable HTTP, sans session\)/);
    expect(error.message).toMatch(/POST/);
    expect(error.hint).toMatch(/initialize, puis tools\/list et tools\/call/);
    for (const name of [...LEAD_KINDS.map((e) => e.tool.name), 'request_privacy_action']) {
      expect(error.hint).toContain(name);
    }
    expect(error.hint).toContain('/.well-known/mcp/server-card.json');
    expect(error.hint).toContain('/llms.txt');
  });

  it('POST /mcp shares the API rate limit per address (docs/reliability.md)', async () => {
    const limited = await buildTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
      const headers = { accept: 'application/json, text/event-stream' };
      const statuses = [];
      for (let i = 0; i < 3; i++) {
        const response = await postJson(limited.app, '/mcp', ping, headers);
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
