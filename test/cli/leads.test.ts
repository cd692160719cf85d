import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createStore } from '../../src/store/create-store.ts';
import { expectApiError, postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validContact, validSubscribe, type TestApp } from '../helpers/app.ts';
import { unreachableSmtpUrl } from '../helpers/smtp-sink.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'leadgate-cli-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Issue 2: `leadgate leads …` as an operator runs it: a child process, configured by env only. */
function leadgate(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/leadgate.js', ...args],
      { env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, ...env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Sends requests through the real app on DATA_DIR, then closes it so the CLI has the file alone. */
async function withApp(env: Record<string, string>, send: (t: TestApp) => Promise<void>) {
  const t = await buildTestApp({ env: { DATA_DIR: dataDir, ...env }, dialect: 'sqlite' });
  try {
    await send(t);
  } finally {
    await t.close();
  }
}

async function sendTwoLeads() {
  await withApp({}, async (t) => {
    expect((await postJson(t.app, '/api/contact', validContact)).statusCode).toBe(200);
    expect((await postJson(t.app, '/api/subscribe', validSubscribe)).statusCode).toBe(200);
  });
}

describe('issue 2: leadgate leads list', () => {
  it('says so when the journal is empty', async () => {
    const run = await leadgate(['leads', 'list']);
    expect(run).toMatchObject({ code: 0, stdout: 'Aucune demande dans le journal.\n' });
  });

  it('prints one line per lead, oldest first: time, kind, status, attempts, address, id', async () => {
    await sendTwoLeads();
    const run = await leadgate(['leads', 'list']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\S+Z +contact +delivered +1 +marie\.dupont@example\.fr +[0-9a-f-]{36}$/,
    );
    expect(lines[1]).toMatch(/ subscribe +delivered +1 +lea@example\.fr /);
  });
});

describe('issue 2: leadgate leads export', () => {
  it('--format json: every lead with its full payload', async () => {
    await sendTwoLeads();
    const run = await leadgate(['leads', 'export', '--format', 'json']);
    expect(run.code, run.stderr).toBe(0);
    const rows = JSON.parse(run.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      kind: 'contact',
      email: validContact.EMAIL,
      status: 'delivered',
      attempts: 1,
      lastError: '',
      payload: validContact,
    });
    expect(rows[1]).toMatchObject({ kind: 'subscribe', payload: validSubscribe });
  });

  it('--format csv (the default): a header, then one quoted row per lead', async () => {
    await sendTwoLeads();
    const csv = await leadgate(['leads', 'export', '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(await leadgate(['leads', 'export'])).toMatchObject({ stdout: csv.stdout });
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id,receivedAt,kind,email,status,attempts,lastError,payload');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',contact,marie.dupont@example.fr,delivered,1,,');
    // The payload is JSON in one CSV cell: its quotes doubled, its commas kept inside the quotes.
    expect(lines[1]).toContain('"{""PRENOM"":""Marie"",""NOM"":""Dupont""');
  });

  it('an unknown format is refused with a non-zero exit', async () => {
    const run = await leadgate(['leads', 'export', '--format', 'xml']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/csv, json/);
  });
});

// Each run starts Node and tsx (about 1.5 s here, more on a loaded CI machine): allow a minute.
describe(
  'issue 2: leadgate leads replay re-delivers failed and stale pending leads',
  { timeout: 60_000 },
  () => {
    it('failed leads stay failed while SMTP is down (exit 1), then are delivered by the outbox', async () => {
      const smtpDown = { MAIL_PROVIDER: 'smtp', SMTP_URL: await unreachableSmtpUrl() };
      await withApp(smtpDown, async (t) => {
        expectApiError(await postJson(t.app, '/api/contact', validContact), 502, 'upstream_error');
        expectApiError(
          await postJson(t.app, '/api/subscribe', validSubscribe),
          502,
          'upstream_error',
        );
      });
      expect((await leadgate(['leads', 'list'])).stdout.match(/ failed /g)).toHaveLength(2);

      const stillDown = await leadgate(['leads', 'replay'], smtpDown);
      expect(stillDown.code).toBe(1);
      expect(stillDown.stdout).toContain('0 livrée(s), 2 en échec.');

      const replay = await leadgate(['leads', 'replay'], { MAIL_PROVIDER: 'outbox' });
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout.match(/^livrée /gm)).toHaveLength(2);
      expect(replay.stdout).toContain('2 livrée(s), 0 en échec.');
      // The contact gives a confirmation and a notification, the subscription a notification.
      expect(readdirSync(join(dataDir, 'outbox')).filter((f) => f.endsWith('.eml'))).toHaveLength(
        3,
      );

      const rows = JSON.parse((await leadgate(['leads', 'export', '--format', 'json'])).stdout);
      expect(
        rows.map((row: { status: string; attempts: number }) => [row.status, row.attempts]),
      ).toEqual([
        ['delivered', 3],
        ['delivered', 3],
      ]);

      const nothingLeft = await leadgate(['leads', 'replay']);
      expect(nothingLeft).toMatchObject({ code: 0, stdout: '0 livrée(s), 0 en échec.\n' });
    });

    it('a lead left pending by a crash is replayed once it is stale; a fresh one is left alone', async () => {
      const store = await createStore(loadConfig({ DATA_DIR: dataDir }));
      const stale = { kind: 'subscribe', data: validSubscribe, id: randomUUID() } as const;
      await store.record({ ...stale, receivedAt: new Date(Date.now() - 10 * 60_000) });
      const fresh = {
        kind: 'subscribe',
        data: { ...validSubscribe, email: 'fresh@example.fr' },
      } as const;
      await store.record({ ...fresh, id: randomUUID(), receivedAt: new Date() });
      await store.close();

      const replay = await leadgate(['leads', 'replay']);
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout).toBe(`livrée   ${stale.id}\n1 livrée(s), 0 en échec.\n`);
      const list = (await leadgate(['leads', 'list'])).stdout;
      expect(list).toMatch(/subscribe +delivered +1 +lea@example\.fr/);
      expect(list).toMatch(/subscribe +pending +0 +fresh@example\.fr/);
    });
  },
);

describe('leadgate leads purge (retention promised by the privacy policy)', () => {
  it('keeps recent leads by default, and forgets them once older than --older-than-days', async () => {
    await sendTwoLeads();
    const kept = await leadgate(['leads', 'purge']);
    expect(kept).toMatchObject({ code: 0 });
    expect(kept.stdout).toMatch(/^0 demande/);
    const purged = await leadgate(['leads', 'purge', '--older-than-days', '0']);
    expect(purged.stdout).toMatch(/^2 demande/);
    expect((await leadgate(['leads', 'list'])).stdout).toBe('Aucune demande dans le journal.\n');
  });

  it('refuses a number of days that is not a whole number', async () => {
    const run = await leadgate(['leads', 'purge', '--older-than-days', 'trois']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('nombre entier');
  });
});
