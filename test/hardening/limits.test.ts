import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, validContact, validSubscribe, type TestApp } from '../helpers/app.ts';

let testApp: TestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

async function start(env: Record<string, string> = {}) {
  testApp = await buildTestApp({ env });
  return testApp.app;
}

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return testApp!.app.inject({ method: 'POST', url, payload: payload as object, headers });
}

/** Sends raw bytes on a real socket and collects what the server answers until it closes. */
function rawExchange(port: number, write: (socket: ReturnType<typeof connect>) => void) {
  return new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', () => resolve(answer));
    socket.on('connect', () => write(socket));
  });
}

describe('body size limit → 413 payload_too_large (docs/reliability.md)', () => {
  it('refuses a body above the 64 KiB default with the ErrorResponse shape', async () => {
    await start();
    const response = await post('/api/contact', { ...validContact, DEMANDE: 'x'.repeat(70_000) });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toMatchObject({
      success: false,
      error: { code: 'payload_too_large' },
    });
  });

  it('follows BODY_LIMIT_BYTES, and a body under it still works', async () => {
    await start({ BODY_LIMIT_BYTES: '1024' });
    expect((await post('/api/subscribe', validSubscribe)).statusCode).toBe(200);
    const big = await post('/api/subscribe', { ...validSubscribe, firstName: 'é'.repeat(600) });
    expect(big.statusCode).toBe(413);
    expect(big.json().error.message).toContain('1024');
  });

  it('answers a too large Content-Length before any body byte is sent', async () => {
    const app = await start();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const answer = await rawExchange(port, (socket) =>
      socket.write(
        'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100000000\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('"payload_too_large"');
  });

  it('stops reading a chunked body once it passes the limit (the rest is never buffered)', async () => {
    const app = await start({ BODY_LIMIT_BYTES: '4096' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    let sent = 0;
    const answer = await rawExchange(port, (socket) => {
      socket.write(
        'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Transfer-Encoding: chunked\r\n\r\n',
      );
      // Keep streaming 1 KiB chunks and never send the final chunk: only the limit can end this.
      const timer = setInterval(() => {
        if (socket.destroyed || sent > 1_000_000) return clearInterval(timer);
        socket.write(`400\r\n${'a'.repeat(1024)}\r\n`);
        sent += 1024;
      }, 2);
      socket.on('close', () => clearInterval(timer));
      socket.on('data', () => setTimeout(() => socket.destroy(), 50));
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(sent).toBeLessThan(1_000_000);
  });
});

describe('rate limit per client address → 429 rate_limited (docs/reliability.md)', () => {
  it('answers 429 with Retry-After after RATE_LIMIT_PER_MINUTE requests on one endpoint', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '3' });
    for (let i = 0; i < 3; i += 1) {
      expect((await post('/api/subscribe', validSubscribe)).statusCode).toBe(200);
    }
    const limited = await post('/api/subscribe', validSubscribe);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ success: false, error: { code: 'rate_limited' } });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.json().error.hint).toContain(String(retryAfter));
    // Each endpoint counts apart, and reads (health, documents) are never limited.
    expect((await post('/api/contact', validContact)).statusCode).toBe(200);
    expect((await testApp!.app.inject('/healthz')).statusCode).toBe(200);
  });

  it('counts refused requests too, before the body is parsed', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '2' });
    await post('/api/audit', 'not json', { 'content-type': 'application/json' });
    await post('/api/audit', 'not json', { 'content-type': 'application/json' });
    const limited = await post('/api/audit', 'not json', { 'content-type': 'application/json' });
    expect(limited.json().error.code).toBe('rate_limited');
  });

  it('by default limits every client to 30 a minute, loopback and forwarded loopback included', async () => {
    // An empty RATE_LIMIT_PER_MINUTE is unset: the default applies.
    await start({ RATE_LIMIT_PER_MINUTE: '', TRUST_PROXY: '127.0.0.1' });
    for (let i = 0; i < 30; i += 1) {
      expect((await post('/api/subscribe', validSubscribe)).statusCode).toBe(200);
    }
    expect((await post('/api/subscribe', validSubscribe)).statusCode).toBe(429);
    // A client behind the proxy claiming to be loopback is counted as loopback: no exemption either.
    const claimsLoopback = { 'x-forwarded-for': '127.0.0.1' };
    expect((await post('/api/subscribe', validSubscribe, claimsLoopback)).statusCode).toBe(429);
  });

  it('spares only the clients RATE_LIMIT_ALLOW names', async () => {
    await start({
      RATE_LIMIT_PER_MINUTE: '2',
      TRUST_PROXY: '127.0.0.1',
      RATE_LIMIT_ALLOW: '::1, 10.1.0.0/16',
    });
    const from = (address: string) => ({ 'x-forwarded-for': address });
    for (let i = 0; i < 5; i += 1) {
      expect((await post('/api/subscribe', validSubscribe, from('10.1.2.3'))).statusCode).toBe(200);
      expect((await post('/api/subscribe', validSubscribe, from('::1'))).statusCode).toBe(200);
    }
    const others = [];
    for (let i = 0; i < 3; i += 1) {
      others.push((await post('/api/subscribe', validSubscribe, from('10.2.0.1'))).statusCode);
    }
    expect(others).toEqual([200, 200, 429]);
  });

  it('counts an IPv6 client per /64: new addresses in the same block share one budget', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: '127.0.0.1' });
    const statuses = [];
    for (const address of ['2001:db8:5:6::1', '2001:db8:5:6:ffff::2', '2001:db8:5:6:1:2:3:4']) {
      const answer = await post('/api/subscribe', validSubscribe, { 'x-forwarded-for': address });
      statuses.push(answer.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
    const otherBlock = { 'x-forwarded-for': '2001:db8:5:7::1' };
    expect((await post('/api/subscribe', validSubscribe, otherBlock)).statusCode).toBe(200);
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '0' });
    for (let i = 0; i < 40; i += 1) {
      expect((await post('/api/subscribe', validSubscribe)).statusCode).toBe(200);
    }
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY says a proxy sets it', async () => {
    await start({ RATE_LIMIT_PER_MINUTE: '1' });
    await post('/api/subscribe', validSubscribe, { 'x-forwarded-for': '203.0.113.1' });
    const spoofed = await post('/api/subscribe', validSubscribe, {
      'x-forwarded-for': '203.0.113.2',
    });
    expect(spoofed.statusCode).toBe(429);
    await testApp!.close();

    await start({ RATE_LIMIT_PER_MINUTE: '1', TRUST_PROXY: '127.0.0.1' });
    const first = await post('/api/subscribe', validSubscribe, {
      'x-forwarded-for': '203.0.113.1',
    });
    const other = await post('/api/subscribe', validSubscribe, {
      'x-forwarded-for': '203.0.113.2',
    });
    const again = await post('/api/subscribe', validSubscribe, {
      'x-forwarded-for': '203.0.113.1',
    });
    expect([first.statusCode, other.statusCode, again.statusCode]).toEqual([200, 200, 429]);
  });
});

describe('/healthz and /readyz (docs/reliability.md)', () => {
  it('says live and ready while the journal answers, not ready once it is gone', async () => {
    const app = await start();
    expect((await app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await app.inject('/readyz')).statusCode).toBe(200);
    await testApp!.store.close();
    const ready = await app.inject('/readyz');
    expect(ready.statusCode).toBe(503);
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });
});

describe('request id (docs/reliability.md)', () => {
  it('gives every answer an x-request-id, keeping a sane incoming one', async () => {
    const app = await start();
    const fresh = await app.inject('/healthz');
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'lb-42.abc' } });
    expect(kept.headers['x-request-id']).toBe('lb-42.abc');
    const forged = await app.inject({
      url: '/healthz',
      headers: { 'x-request-id': 'x'.repeat(500) },
    });
    expect(forged.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const error = await post('/api/contact', {});
    expect(error.headers['x-request-id']).toBeTruthy();
  });
});

describe('response headers against content sniffing and forged ids', () => {
  it('says X-Content-Type-Options: nosniff on every answer', async () => {
    const app = await start();
    const answers = [
      await post('/api/contact', validContact),
      await post('/api/contact', {}),
      await app.inject('/api/nowhere'),
      await app.inject({ method: 'GET', url: '/api/contact' }),
      await app.inject('/healthz'),
      await app.inject('/openapi.json'),
      await app.inject({ method: 'OPTIONS', url: '/api/contact' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 400, 404, 405, 200, 200, 204]);
    for (const answer of answers) expect(answer.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps an X-Request-Id only when it is a short token of safe characters', async () => {
    const app = await start();
    for (const forged of ['a'.repeat(65), 'two words', 'id\u202Ereversed', 'a"b', 'x/../y']) {
      const answer = await app.inject({ url: '/healthz', headers: { 'x-request-id': forged } });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    const kept = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'a'.repeat(64) } });
    expect(kept.headers['x-request-id']).toBe('a'.repeat(64));
  });
});
