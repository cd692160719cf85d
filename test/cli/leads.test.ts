import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { currentWording } from '../../src/kernel/schemas/consent.ts';
import { expectApiError, postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validContact, validSubscribe, type TestApp } from '../helpers/app.ts';
import { runLeadgate, type CliRun } from '../helpers/leadgate-cli.ts';
import { startSmtpSink, unreachableSmtpUrl } from '../helpers/smtp-sink.ts';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'leadgate-cli-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** README, Commands: `leadgate leads …` as an operator runs it, on this test's DATA_DIR. */
function leadgate(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runLeadgate(args, { DATA_DIR: dataDir, ...env });
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

describe('leadgate leads list (README, Commands)', () => {
  it('says so when the journal is empty', async () => {
    expect((await leadgate(['db', 'migrate'])).code).toBe(0);
    const run = await leadgate(['leads', 'list']);
    expect(run).toMatchObject({ code: 0, stdout: 'Aucune demande dans le journal.\n' });
  });

  it('a DATA_DIR without a journal (a typo) is said, exit 2, and no empty journal is created', async () => {
    for (const command of [
      ['leads', 'list'],
      ['leads', 'export'],
    ]) {
      const run = await leadgate(command);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        /^Configuration invalide : aucun journal à .*\/leadgate\.sqlite \(DATA_DIR\) : « leadgate leads (list|export) » travaille sur le journal du service et n’en crée pas ; .*\n$/,
      );
    }
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('prints one line per lead, oldest first: time, kind, status, attempts, address, id', async () => {
    await sendTwoLeads();
    const run = await leadgate(['leads', 'list']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^\d\d\/\d\d\/\d{4} \d\d:\d\d +contact +delivered +1 +marie\.dupont@example\.fr +[0-9a-f-]{36}$/,
    );
    expect(lines[1]).toMatch(/ subscribe +delivered +1 +lea@example\.fr /);
  });

  it('--status failed: only those leads, each with its last error (docs/operations.md)', async () => {
    await sendTwoLeads();
    await withApp({ MAIL_PROVIDER: 'smtp', SMTP_URL: await unreachableSmtpUrl() }, async (t) => {
      const answer = await postJson(t.app, '/api/contact', {
        ...validContact,
        EMAIL: 'x@example.fr',
      });
      expect(answer.statusCode).toBe(502);
    });
    const failed = await leadgate(['leads', 'list', '--status', 'failed']);
    expect(failed.code, failed.stderr).toBe(0);
    const lines = failed.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/ contact +failed +1 +x@example\.fr +[0-9a-f-]{36} +\S.*ECONNREFUSED/);
    const delivered = await leadgate(['leads', 'list', '--status', 'delivered']);
    expect(delivered.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect((await leadgate(['leads', 'list', '--status', 'pending'])).stdout).toBe(
      'Aucune demande « pending ».\n',
    );
    expect((await leadgate(['leads', 'list', '--status', 'lost'])).code).not.toBe(0);
  }, 90_000);
});

describe('leadgate leads export (README, Commands)', () => {
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
    // docs/consent.md: the proof of consent survives the export.
    expect(rows[0]!.consent).toMatchObject({
      wordingHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      version: currentWording('contact').version,
      channel: 'api',
      givenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      network: '127.0.0.0/24',
    });
  });

  it('--format csv (the default): a header, then one quoted row per lead', async () => {
    await sendTwoLeads();
    const csv = await leadgate(['leads', 'export', '--format', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(await leadgate(['leads', 'export'])).toMatchObject({ stdout: csv.stdout });
    const lines = csv.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('id,receivedAt,kind,email,status,attempts,lastError,payload,consent');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',contact,marie.dupont@example.fr,delivered,1,,');
    // The payload is JSON in one CSV cell: its quotes doubled, its commas kept inside the quotes.
    expect(lines[1]).toContain('"{""PRENOM"":""Marie"",""NOM"":""Dupont""');
    expect(lines[1]).toMatch(/"{""wordingHash"":""[0-9a-f]{64}"",""version"":""demande-/);
  });

  it('an unknown format is refused with a non-zero exit', async () => {
    const run = await leadgate(['leads', 'export', '--format', 'xml']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/csv, json/);
  });
});

// Each run starts Node and tsx (about 1.5 s here, more on a loaded CI machine): allow a minute.
describe(
  'leadgate leads replay delivers now what waits, with the provider each step is for (docs/delivery.md)',
  { timeout: 60_000 },
  () => {
    it('refuses to start without the mail settings, then delivers with them, each e-mail once', async () => {
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

      // A cron job with an empty environment: the steps are for SMTP, not for the local outbox.
      const emptyEnvironment = await leadgate(['leads', 'replay']);
      expect(emptyEnvironment.code).toBe(2);
      // The contact's confirmation and notification, the subscription's link (double opt-in) and notification.
      expect(emptyEnvironment.stderr).toMatch(/4 step\(s\) wait for provider smtp/);
      expect(readdirSync(dataDir)).not.toContain('outbox');

      const smtp = await startSmtpSink();
      try {
        const replay = await leadgate(['leads', 'replay'], {
          MAIL_PROVIDER: 'smtp',
          SMTP_URL: smtp.url,
        });
        expect(replay.code, replay.stderr).toBe(0);
        expect(replay.stdout.match(/^livrée /gm)).toHaveLength(2);
        expect(replay.stdout).toContain('2 livrée(s), 0 en échec.');
        // The contact gives a confirmation and a notification, the subscription its confirmation link
        // (double opt-in, docs/consent.md) and a notification.
        expect(smtp.received).toHaveLength(4);
      } finally {
        await smtp.close();
      }
      const rows = JSON.parse((await leadgate(['leads', 'export', '--format', 'json'])).stdout);
      expect(rows.map((row: { status: string }) => row.status)).toEqual(['delivered', 'delivered']);
      const nothingLeft = await leadgate(['leads', 'replay']);
      expect(nothingLeft).toMatchObject({ code: 0, stdout: '0 livrée(s), 0 en échec.\n' });
    });

    it('leads status shows the backlog per destination; replay delivers leads still pending', async () => {
      // Accepted in queued mode by a server whose dispatcher never ran (it was killed at once).
      await withApp({ DELIVERY: 'queued' }, async (t) => {
        expect((await postJson(t.app, '/api/contact', validContact)).statusCode).toBe(200);
      });
      const status = await leadgate(['leads', 'status']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(
        /agency-notification \(outbox\) +en attente 1 +en reprise 0 +abandonnées 0/,
      );
      expect(status.stdout).toMatch(/confirmation-email \(outbox\) +en attente 1/);
      expect(status.stdout).toMatch(
        /Total : en attente 2, en reprise 0, abandonnées 0, refusées 0 ; plus ancienne demande non livrée : \d+ s\./,
      );

      const replay = await leadgate(['leads', 'replay']);
      expect(replay.code, replay.stderr).toBe(0);
      expect(replay.stdout).toContain('1 livrée(s), 0 en échec.');
      expect(readdirSync(join(dataDir, 'outbox'))).toHaveLength(2);
      expect((await leadgate(['leads', 'status'])).stdout).toContain('aucune demande en attente');
    });
  },
);

describe(
  'leadgate leads purge (retention promised by the privacy policy)',
  { timeout: 60_000 },
  () => {
    it('keeps recent leads by default, and forgets them once older than --older-than-days', async () => {
      await sendTwoLeads();
      const kept = await leadgate(['leads', 'purge']);
      expect(kept).toMatchObject({ code: 0 });
      expect(kept.stdout).toMatch(/^0 demande/);
      // The contact's confirmation and notification, the subscription's link and notification.
      expect(readdirSync(join(dataDir, 'outbox'))).toHaveLength(4);
      const purged = await leadgate(['leads', 'purge', '--older-than-days', '0']);
      expect(purged.stdout).toMatch(/^2 demande.*, 4 e-mail/);
      // The outbox follows the journal's retention (docs/operations.md).
      expect(readdirSync(join(dataDir, 'outbox'))).toEqual([]);
      expect((await leadgate(['leads', 'list'])).stdout).toBe('Aucune demande dans le journal.\n');
    });

    it('refuses a number of days that is not a whole number', async () => {
      const run = await leadgate(['leads', 'purge', '--older-than-days', 'trois']);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain('nombre entier');
    });
  },
);
