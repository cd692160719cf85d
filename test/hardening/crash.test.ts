import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import { validContact } from '../helpers/app.ts';
import {
  childJournal,
  startChildServer,
  type ChildJournal,
  type ChildServer,
} from './child-server.ts';

let dataDir: string;
let journal: ChildJournal | undefined;
const children: ChildServer[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    child.process.kill('SIGKILL');
    await child.exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
  await journal?.drop();
  journal = undefined;
});

/** Answers the clients count before the kill: `reached` resolves on the 30th, not on a timer. */
function answersCounted(needed = 30) {
  let resolve!: () => void;
  const reached = new Promise<void>((done) => (resolve = done));
  return { reached, count: (answers: number) => answers >= needed && resolve() };
}

describe('kill -9 mid-run loses no acknowledged lead and duplicates none (docs/reliability.md)', () => {
  it('every request answered 200 or 502 is in the journal exactly once after a restart', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-crash-'));
    journal = await childJournal(dataDir);
    const env = journal.env;
    const server = await startChildServer(env);
    children.push(server);

    const answered = new Map<string, number>();
    const sent: string[] = [];
    const enough = answersCounted();
    let running = true;
    const client = async () => {
      while (running) {
        const marker = randomUUID();
        sent.push(marker);
        try {
          const response = await fetch(`${server.url}/api/contact`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ ...validContact, TOOL_SOURCE: marker }),
          });
          await response.arrayBuffer();
          answered.set(marker, response.status);
          enough.count(answered.size);
        } catch {
          // The server died under this request: it may or may not be journaled, never twice.
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    // Kill while 8 requests are in flight, once enough have been acknowledged.
    await enough.reached;
    server.process.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    running = false;
    await Promise.all(clients);

    const acknowledged = [...answered].filter(([, status]) => status === 200 || status === 502);
    expect(acknowledged.length).toBeGreaterThan(0);
    expect([...answered.values()].every((status) => status === 200)).toBe(true);

    const restarted = await startChildServer(env);
    children.push(restarted);
    const store = await createStore(loadConfig(env));
    try {
      const counts = new Map<string, number>();
      for (const { lead } of await store.list()) {
        const marker = lead.kind === 'contact' ? lead.data.TOOL_SOURCE : undefined;
        if (marker) counts.set(marker, (counts.get(marker) ?? 0) + 1);
      }
      for (const [marker] of acknowledged) expect(counts.get(marker), marker).toBe(1);
      for (const [marker, count] of counts) {
        expect(count, marker).toBe(1);
        expect(sent).toContain(marker);
      }
      // docs/workspace.md, « La boîte de réception »: each acknowledged lead is found by the inbox's
      // search, once (its words are indexed in its accept transaction).
      for (const [marker] of acknowledged) {
        expect((await store.work.page({ limit: 2, search: marker })).total, marker).toBe(1);
      }
    } finally {
      await store.close();
    }
    // The restarted server takes new leads at once.
    const after = await fetch(`${restarted.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validContact),
    });
    expect(after.status).toBe(200);
  }, 240_000);

  it('with Idempotency-Key, retrying every request after the crash journals each lead exactly once', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-crash-keys-'));
    journal = await childJournal(dataDir);
    // A short provider timeout, so keys held by the killed server are taken over sooner (2 × 1 s + 10 s).
    const env = { ...journal.env, PROVIDER_TIMEOUT_MS: '1000' };
    const post = (url: string, marker: string) =>
      fetch(`${url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': marker },
        body: JSON.stringify({ ...validContact, TOOL_SOURCE: marker }),
      });
    const server = await startChildServer(env);
    children.push(server);
    const sent: string[] = [];
    let answered = 0;
    const enough = answersCounted();
    let running = true;
    const client = async () => {
      while (running) {
        const marker = randomUUID();
        sent.push(marker);
        try {
          await (await post(server.url, marker)).arrayBuffer();
          answered += 1;
          enough.count(answered);
        } catch {
          // killed under this request
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await enough.reached;
    server.process.kill('SIGKILL');
    await server.exited;
    running = false;
    await Promise.all(clients);

    // The callers retry everything they sent, with the same keys, until they get their 200.
    const restarted = await startChildServer(env);
    children.push(restarted);
    const statuses = await Promise.all(
      sent.map(async (marker) => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          const response = await post(restarted.url, marker);
          await response.arrayBuffer();
          // 409: the key is still held (by the killed server, until taken over); 502: retrying is safe.
          if (![409, 502].includes(response.status) || Date.now() > deadline)
            return response.status;
          await sleep(500);
        }
      }),
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const store = await createStore(loadConfig(env));
    try {
      const entries = (await store.list()).filter(({ lead }) => lead.kind === 'contact');
      const markers = entries.map(({ lead }) =>
        lead.kind === 'contact' ? lead.data.TOOL_SOURCE : '',
      );
      expect(markers.sort()).toEqual([...sent].sort());
      // The restarted server's dispatcher delivers them all, with no command run, including the
      // steps the killed one had leased once their lease ends (docs/delivery.md).
      const undelivered = async () =>
        (await store.list()).filter((entry) => entry.status !== 'delivered').length;
      await expect.poll(undelivered, { timeout: 90_000, interval: 500 }).toBe(0);
    } finally {
      await store.close();
    }
  }, 300_000);
});
