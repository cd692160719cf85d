import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { DEFAULT_SERVER_TIMEOUTS } from '../../src/kernel/http/limits/server-timeouts.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import { mailIdentity } from '../../src/features/site/mail-identity.ts';

/*
 * docs/reliability.md: a slowloris holds sockets by sending a request a byte at a time. The production values
 * (DEFAULT_SERVER_TIMEOUTS) are seconds long; the same mechanism is tested here with short ones.
 */
const timeouts = {
  headersMs: 600,
  requestMs: 1500,
  idleMs: 5000,
  keepAliveMs: 500,
  checkIntervalMs: 100,
};

let port: number;
let close: () => Promise<void>;
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-slow-'));
  const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' });
  const store = await createStore(config);
  const provider = createProvider(config, store, mailIdentity());
  const app = await buildApp({ config, store, provider, timeouts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  close = async () => {
    await app.close();
    await provider.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterAll(() => close());

/** Opens a raw socket, drips `chunks` one every `everyMs`, and says when (and how) the server ended it. */
function drip(first: string, next: () => string, everyMs: number) {
  return new Promise<{ afterMs: number; answer: string }>((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      if (first) socket.write(first);
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(next());
      }, everyMs);
    });
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ afterMs: performance.now() - started, answer });
    });
  });
}

describe('slow clients cannot hold a socket forever (docs/reliability.md)', () => {
  it('production timeouts are all bounded', () => {
    for (const value of Object.values(DEFAULT_SERVER_TIMEOUTS)) {
      expect(value).toBeGreaterThan(0);
    }
    expect(DEFAULT_SERVER_TIMEOUTS.headersMs).toBeLessThanOrEqual(
      DEFAULT_SERVER_TIMEOUTS.requestMs,
    );
  });

  it('a request head dripped one header line at a time is cut after the headers timeout', async () => {
    let n = 0;
    const result = await drip(
      'POST /api/contact HTTP/1.1\r\nHost: x\r\n',
      () => `X-${(n += 1)}: a\r\n`,
      100,
    );
    expect(result.afterMs).toBeGreaterThan(timeouts.headersMs - 50);
    expect(result.afterMs).toBeLessThan(timeouts.headersMs + 1000);
    expect(result.answer).toMatch(/^(HTTP\/1\.1 408|$)/);
  });

  it('a body dripped one byte at a time is cut after the request timeout', async () => {
    const head =
      'POST /api/contact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n';
    const result = await drip(head, () => ' ', 100);
    expect(result.afterMs).toBeGreaterThan(timeouts.requestMs - 50);
    expect(result.afterMs).toBeLessThan(timeouts.requestMs + 1000);
  });

  it('a connection that never sends a byte is closed too', async () => {
    const result = await drip('', () => '', 1_000_000);
    expect(result.afterMs).toBeLessThan(timeouts.requestMs + 1000);
  });

  it('and the server still answers a normal request', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(response.status).toBe(200);
  });
});
