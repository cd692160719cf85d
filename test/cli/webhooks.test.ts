import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webhookDestinationName } from '../../src/providers/webhooks/webhook-destination.ts';
import { webhookIdFor } from '../../src/providers/webhooks/webhook-message.ts';
import { currentWording } from '../../src/kernel/schemas/consent.ts';
import { SUBSCRIBE_EXAMPLE } from '../../src/kernel/schemas/examples.ts';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validContact } from '../helpers/app.ts';
import { runLeadgate, type CliRun } from '../helpers/leadgate-cli.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';

/** `leadgate …` as an operator runs it, from the sources (the test must not depend on a stale bundle). */
function leadgate(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runLeadgate(args, { LEADGATE_BUNDLE: '0', ...env });
}

let receiver: WebhookReceiver;
beforeEach(async () => {
  receiver = await startWebhookReceiver();
});
afterEach(() => receiver.close());

const signing = { WEBHOOK_SECRET: TEST_WEBHOOK_SECRET, WEBHOOK_ALLOW_PRIVATE: 'true' };

describe('leadgate webhooks test <url> (docs/webhooks.md)', () => {
  it('sends one signed sample lead and prints the answer', async () => {
    const run = await leadgate(['webhooks', 'test', receiver.url, '--kind', 'subscribe'], signing);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^webhook-id msg_\S{32}\nRéponse HTTP 200 en \d+ ms\nreçu\n$/);
    expect(receiver.received).toHaveLength(1);
    const [received] = receiver.received;
    expect(received!.verifyError).toBeUndefined();
    // The sample is the subscribe example /developers documents.
    expect(received!.event).toMatchObject({
      type: 'lead.subscribe',
      data: {
        id: expect.stringMatching(/^test-/),
        consent: { version: currentWording('subscribe').version, channel: 'api', page: null },
        fields: SUBSCRIBE_EXAMPLE,
      },
    });
  });

  it('exits 1 and prints the status when the receiver refuses', async () => {
    receiver.answer = 500;
    const run = await leadgate(['webhooks', 'test', receiver.url], signing);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Réponse HTTP 500');
    expect(run.stdout).toContain('réponse 500');
  });

  it('refuses a loopback receiver without WEBHOOK_ALLOW_PRIVATE=true (server-side request forgery)', async () => {
    const run = await leadgate(['webhooks', 'test', receiver.url], {
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Échec : 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback/);
    expect(receiver.received).toHaveLength(0);
  });

  it('stops with one line and exit 2 when WEBHOOK_SECRET is malformed', async () => {
    const run = await leadgate(['webhooks', 'test', receiver.url], {
      WEBHOOK_SECRET: 'not-a-secret',
    });
    expect(run).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'Configuration invalide : WEBHOOK_SECRET must be whsec_ followed by the base64 of 24 to 64 random bytes (value not shown: it may hold a password)\n',
    });
  });
});

describe('leadgate leads status / replay --destination with webhooks (docs/webhooks.md)', () => {
  let dataDir: string;
  let sink: SmtpSink;
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-webhooks-cli-'));
    sink = await startSmtpSink();
  });
  afterEach(async () => {
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows a dead webhook step on its own line, and replays only that destination', async () => {
    const env = {
      ...signing,
      DATA_DIR: dataDir,
      DELIVERY: 'queued',
      MAIL_PROVIDER: 'smtp',
      SMTP_URL: sink.url,
      WEBHOOK_URLS: receiver.url,
      DELIVERY_MAX_ATTEMPTS: '1',
    };
    const name = webhookDestinationName(new URL(receiver.url));
    receiver.answer = 500;
    const t = await buildTestApp({ env, dialect: 'sqlite', dispatch: true });
    let leadId: string;
    try {
      expect((await postJson(t.app, '/api/contact', validContact)).statusCode).toBe(200);
      leadId = (await t.store.list())[0]!.lead.id;
      const open = async () =>
        (await t.store.deliveries.steps(leadId))
          .filter((step) => step.status !== 'done' && step.status !== 'dead')
          .map((step) => step.destination);
      await expect.poll(open, { interval: 50 }).toEqual([]);
    } finally {
      await t.close();
    }
    // The confirmation and the notification (the dead step's alert may follow: not counted here).
    const mails = () => sink.received.filter((m) => !m.email.subject?.includes('abandonné'));
    expect(mails()).toHaveLength(2);

    const status = await leadgate(['leads', 'status'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      new RegExp(
        `^${name} \\(webhook\\) +en attente 0  en reprise 0  abandonnées 1  refusées 0$`,
        'm',
      ),
    );

    const unknown = await leadgate(['leads', 'replay', '--destination', 'webhook:nope'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--destination webhook:nope is not one of');

    receiver.answer = 200;
    const replay = await leadgate(['leads', 'replay', '--destination', name], env);
    expect(replay.code, replay.stderr + replay.stdout).toBe(0);
    expect(replay.stdout).toBe(`livrée   ${leadId}\n1 livrée(s), 0 en échec.\n`);
    // The first (failed) attempt and the replay: one message, one webhook-id; no e-mail again.
    expect(receiver.received.map((r) => [r.headers['webhook-id'], r.status])).toEqual([
      [webhookIdFor(leadId, name), 500],
      [webhookIdFor(leadId, name), 200],
    ]);
    expect(mails()).toHaveLength(2);
    const after = await leadgate(['leads', 'status'], env);
    expect(after.stdout).toContain('aucune demande en attente');
  }, 120_000);
});
