import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import { validContact } from '../helpers/app.ts';
import { childJournal, startChildServer, type ChildJournal } from './child-server.ts';

/** A real SMTP server that takes 1.5 s to accept each message: a slow provider. */
let smtp: SMTPServer;
let smtpUrl: string;
let dataDir: string;
let journal: ChildJournal;
/** Resolved when the first message reaches the SMTP server: a request is then in flight. */
let messageArrived: Promise<void>;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'leadgate-shutdown-'));
  journal = await childJournal(dataDir);
  let arrived = () => {};
  messageArrived = new Promise((resolve) => (arrived = resolve));
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      arrived();
      stream.resume();
      stream.on('end', () => setTimeout(() => callback(), 1500));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  rmSync(dataDir, { recursive: true, force: true });
  await journal.drop();
});

describe('SIGTERM finishes in-flight requests, then exits (docs/reliability.md)', () => {
  it('answers the request in flight with 200, refuses new ones, and exits 0', async () => {
    const env = {
      ...journal.env,
      MAIL_PROVIDER: 'smtp',
      SMTP_URL: smtpUrl,
      PROVIDER_TIMEOUT_MS: '10000',
    };
    const server = await startChildServer(env);
    const inFlight = fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validContact),
    });
    // Signalled once the request waits on the slow SMTP server, however long it took to get there.
    await messageArrived;
    server.process.kill('SIGTERM');
    // New requests are refused from then on, while the one in flight is still being answered.
    await expect
      .poll(() =>
        fetch(`${server.url}/healthz`).then(
          (response) => response.status,
          () => 'refused',
        ),
      )
      .toSatisfy((status) => status === 503 || status === 'refused');

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true });
    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });

    const store = await createStore(loadConfig(env));
    try {
      expect((await store.list()).map((entry) => entry.status)).toEqual(['delivered']);
    } finally {
      await store.close();
    }
  }, 180_000);
});
