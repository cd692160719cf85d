import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, validContact } from '../helpers/app.ts';
import { startFakeBrevo } from '../helpers/fake-brevo.ts';
import { watchTurns } from '../helpers/late-turns.ts';

/*
 * docs/reliability.md: whatever the provider does wrong, the caller gets 502 upstream_error within
 * PROVIDER_TIMEOUT_MS + 1 s, the lead stays in the journal as `failed`, and the server stays healthy.
 * Providers misbehave on loopback only: raw TCP servers and a fake of Brevo's HTTP API.
 */
const PROVIDER_TIMEOUT_MS = 1500;

type Behaviour = (socket: Socket) => void;

/** A TCP server that treats every connection with `behaviour` (reset, drip, silence…). */
async function rawServer(behaviour: Behaviour) {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    behaviour(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    timers,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearInterval(timer);
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const reset: Behaviour = (socket) => setTimeout(() => socket.resetAndDestroy(), 20);
const silent: Behaviour = () => {};
const garbage: Behaviour = (socket) => socket.end('\u0000\u00ff garbage \r\n not a protocol\r\n');
/** Sends `text` one byte every 100 ms, forever: data keeps coming, so no idle timeout fires. */
const dripping =
  (text: string): Behaviour =>
  (socket) => {
    let index = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(text[index % text.length]!);
      index += 1;
    }, 100);
    socket.on('close', () => clearInterval(timer));
  };

async function expectFault(env: Record<string, string>) {
  const started = await buildTestApp({
    env: { PROVIDER_TIMEOUT_MS: String(PROVIDER_TIMEOUT_MS), ...env },
  });
  try {
    await started.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(started.app.server.address() as AddressInfo).port}`;
    const marker = randomUUID();
    // The server and this client share this process: the time it waited for its turns (a loaded
    // machine's scheduling) is the machine's, not the deadline's (docs/quality.md).
    const turns = watchTurns();
    const began = performance.now();
    const response = await fetch(`${base}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...validContact, DEMANDE: marker }),
    });
    const elapsed = performance.now() - began;
    turns.stop();
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'upstream_error',
    );
    expect(elapsed - turns.totalMs()).toBeLessThan(PROVIDER_TIMEOUT_MS + 1000);

    const entries = (await started.store.list()).filter(
      ({ lead }) => lead.kind === 'contact' && lead.data.DEMANDE === marker,
    );
    expect(entries.map((entry) => entry.status)).toEqual(['failed']);
    expect(entries[0]?.lastError).toBeTruthy();

    // Still healthy: live, ready, and answering the next request at once.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const next = await fetch(`${base}/api/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(next.status).toBe(400);
  } finally {
    await started.close();
  }
}

describe('SMTP provider faults → 502 within PROVIDER_TIMEOUT_MS + 1 s (docs/reliability.md)', () => {
  const cases: [string, Behaviour][] = [
    ['resets the connection', reset],
    ['never answers', silent],
    ['answers garbage', garbage],
    ['drips its greeting byte by byte', dripping('220 smtp.example ESMTP ')],
    ['drips an endless multi-line greeting', dripping('220-a\r\n')],
  ];
  for (const [name, behaviour] of cases) {
    it(name, async () => {
      const server = await rawServer(behaviour);
      try {
        await expectFault({ MAIL_PROVIDER: 'smtp', SMTP_URL: `smtp://127.0.0.1:${server.port}` });
      } finally {
        await server.close();
      }
    });
  }
});

describe('Brevo (HTTP) provider faults → 502 within PROVIDER_TIMEOUT_MS + 1 s (docs/reliability.md)', () => {
  let brevo: Awaited<ReturnType<typeof startFakeBrevo>>;
  beforeAll(async () => {
    brevo = await startFakeBrevo('right-key');
  });
  afterAll(() => brevo.close());
  const brevoEnv = (url: string, key = 'right-key') => ({
    MAIL_PROVIDER: 'brevo',
    BREVO_API_KEY: key,
    BREVO_API_URL: url,
    BREVO_NEWSLETTER_LIST_ID: '8',
  });

  const scripted: [string, Parameters<typeof brevo.script>[1]][] = [
    ['answers 500', { status: 500, body: { code: 'internal_error', message: 'boom' } }],
    ['answers 429', { status: 429, body: { code: 'too_many_requests', message: 'slow down' } }],
    ['answers garbage', 'garbage'],
    ['never answers', 'hang'],
  ];
  for (const [name, answer] of scripted) {
    it(name, async () => {
      brevo.script('/contacts', answer);
      try {
        await expectFault(brevoEnv(brevo.url));
      } finally {
        brevo.script('/contacts', undefined);
      }
    });
  }

  it('answers 401 (wrong API key)', async () => {
    await expectFault(brevoEnv(brevo.url, 'wrong-key'));
  });

  const raw: [string, Behaviour][] = [
    ['resets the connection', reset],
    ['drips its answer byte by byte', dripping('HTTP/1.1 201 Created\r\nX-Slow: ')],
  ];
  for (const [name, behaviour] of raw) {
    it(name, async () => {
      const server = await rawServer(behaviour);
      try {
        await expectFault(brevoEnv(`http://127.0.0.1:${server.port}/v3`));
      } finally {
        await server.close();
      }
    });
  }
});
