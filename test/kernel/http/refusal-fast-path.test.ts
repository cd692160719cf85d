import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFastPath } from '../../../src/kernel/http/site/fast-path.ts';
import {
  createRefusedClients,
  type RefusedClients,
} from '../../../src/kernel/http/limits/refusal-fast-path.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';

// A client the rate limit refused is refused again over a real socket before Fastify
// (src/kernel/http/limits/refusal-fast-path.ts); app.inject never takes that path, Fastify's
// limiter answers it.

const METRICS_TOKEN = 'a-metrics-token-of-32-characters';

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

function overSocket(
  port: number,
  path: string,
  body: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method: 'POST', path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The seconds left are read from each answer's Retry-After: two answers may fall a second apart. */
function comparable({ status, headers, body }: Answer) {
  const {
    date,
    connection,
    'keep-alive': keepAlive,
    'x-request-id': id,
    'content-length': length,
    ...rest
  } = headers;
  void [date, connection, keepAlive, id];
  const seconds = String(headers['retry-after']);
  expect(rest['x-ratelimit-reset']).toBe(seconds);
  expect(Number(length)).toBe(Buffer.byteLength(body));
  return {
    status,
    headers: { ...rest, 'retry-after': 'N', 'x-ratelimit-reset': 'N' },
    body: body.replace(`dans ${seconds} secondes`, 'dans N secondes'),
  };
}

describe('a refused client over a real socket (docs/performance.md, "The 429 flood")', () => {
  let test: TestApp | undefined;
  afterEach(async () => {
    await test?.close();
    test = undefined;
  });

  it.each([
    ['/api/contact', JSON.stringify(validContact)],
    ['/api/contact?source=agent', 'not json'],
    ['/mcp', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
  ])(
    'POST %s: the same 429 as the limiter answers, counted as the limiter counts',
    async (path, body) => {
      test = await buildTestApp({
        env: { RATE_LIMIT_PER_MINUTE: '2', METRICS_TOKEN: METRICS_TOKEN },
      });
      await test.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = test.app.server.address() as AddressInfo;
      const headers = { 'content-type': 'application/json', accept: 'application/json' };
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await overSocket(port, path, body, headers));
      expect(answers.map((answer) => answer.status).slice(2)).toEqual([429, 429, 429]);
      const byFastify = await test.app.inject({
        method: 'POST',
        url: path,
        headers,
        payload: body,
        remoteAddress: '127.0.0.1',
      });
      expect(byFastify.statusCode).toBe(429);
      const fastifyAnswer = {
        status: byFastify.statusCode,
        headers: byFastify.headers,
        body: byFastify.body,
      };
      for (const refused of answers.slice(2))
        expect(comparable(refused)).toEqual(comparable(fastifyAnswer));
      // Every refusal counted where the operator looks, whichever path answered it.
      const metrics = await test.app.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const route = path.split('?')[0];
      expect(metrics.body).toContain(
        `leadgate_http_requests_total{route="${route}",method="POST",status="429"} 4`,
      );
    },
  );
});

describe('createRefusedClients', () => {
  let server: Server | undefined;
  afterEach(
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  );

  /** What the server answers to a request the fast path let through (Fastify, in the app). */
  const PASSED_ON = 'passed on to Fastify';

  /** A server whose every request past the fast path gets PASSED_ON. */
  async function serving(refusals: RefusedClients) {
    const fastPath = createFastPath();
    fastPath.answerWith([refusals.answer]);
    const factory = fastPath.serverFactory(
      (_request, response) => response.writeHead(200).end(PASSED_ON),
      { keepAliveTimeout: 5000, requestTimeout: 5000, connectionTimeout: 5000 } as never,
    );
    server = factory as unknown as Server;
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  function refusedClients(trustProxy: false | string[] = false) {
    const answered: string[] = [];
    const counted: string[] = [];
    // The windows' clock stands still unless the test moves it: a loaded machine changes nothing.
    const clock = { ms: Date.now() };
    const refusals = createRefusedClients({
      perMinute: 7,
      trustProxy,
      everyAnswer: ['x-content-type-options', 'nosniff'],
      onAnswered: (route) => answered.push(route),
      now: () => clock.ms,
    });
    const record = (client: string, ttlMs: number, route = '/api/contact') =>
      refusals.record(route, client, ttlMs, (refused) => counted.push(refused));
    return { refusals, record, answered, counted, clock };
  }

  it('refuses a recorded client on its route only, counting each refusal, until the window ends', async () => {
    const { refusals, record, answered, counted, clock } = refusedClients();
    const port = await serving(refusals);
    record('127.0.0.1', 1_500);
    const refused = await overSocket(port, '/api/contact?x=1', '{}');
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({
      'retry-after': '2',
      'x-ratelimit-limit': '7',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '2',
      'x-content-type-options': 'nosniff',
      'content-type': 'application/json; charset=utf-8',
    });
    expect(typeof refused.headers['x-request-id']).toBe('string');
    expect(JSON.parse(refused.body)).toMatchObject({
      success: false,
      error: { code: 'rate_limited', hint: 'Réessayez dans 2 secondes.' },
    });
    expect((await overSocket(port, '/api/subscribe', '{}')).body).toBe(PASSED_ON);
    expect(answered).toEqual(['/api/contact']);
    expect(counted).toEqual(['127.0.0.1']);
    clock.ms += 1_500;
    expect((await overSocket(port, '/api/contact', '{}')).body).toBe(PASSED_ON);
    expect(answered).toHaveLength(1);
  });

  it('leaves a browser form post to Fastify (its form page says why), and another client', async () => {
    const { refusals, record } = refusedClients();
    const port = await serving(refusals);
    record('127.0.0.1', 60_000);
    const form = { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' };
    expect((await overSocket(port, '/api/contact', 'a=1', form)).body).toBe(PASSED_ON);
    const formAskingJson = { ...form, accept: 'application/json' };
    expect((await overSocket(port, '/api/contact', 'a=1', formAskingJson)).status).toBe(429);
    record('127.0.0.2', 60_000, '/api/subscribe');
    expect((await overSocket(port, '/api/subscribe', '{}')).body).toBe(PASSED_ON);
  });

  it('names the client as request.ip does: the forwarded address only behind a trusted proxy', async () => {
    const trusted = refusedClients(['127.0.0.1']);
    const port = await serving(trusted.refusals);
    trusted.record('203.0.113.7', 60_000);
    const from = (address: string) => ({
      'content-type': 'application/json',
      'x-forwarded-for': address,
    });
    expect((await overSocket(port, '/api/contact', '{}', from('203.0.113.7'))).status).toBe(429);
    expect((await overSocket(port, '/api/contact', '{}', from('203.0.113.8'))).body).toBe(
      PASSED_ON,
    );
    expect((await overSocket(port, '/api/contact', '{}')).body).toBe(PASSED_ON);
  });
});
