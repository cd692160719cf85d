import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../../../src/kernel/observability/logging.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { unreachableSmtpUrl } from '../../helpers/smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/*
 * docs/delivery.md, « Alerts »: the SMTP server cannot be reached, so the agency's notification is
 * itself a failing step and an alert e-mail would fail the same way. The agency hears of it exactly
 * once, through ALERT_WEBHOOK_URL, with what to fix and how many leads wait; the log says each cause
 * once, without a stack trace, however many attempts and checks go by while the lead dies.
 */
const MAX_ATTEMPTS = 4;

let harness: TestApp;
let hook: WebhookReceiver;

afterEach(async () => {
  await harness?.close();
  await hook?.close();
});

describe('an unreachable SMTP server and a dead lead (docs/delivery.md, « Alerts »)', () => {
  it('one alert through ALERT_WEBHOOK_URL, one log line per cause, no stack trace', async () => {
    hook = await startWebhookReceiver();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    harness = await buildTestApp({
      env: {
        DELIVERY: 'queued',
        MAIL_PROVIDER: 'smtp',
        SMTP_URL: await unreachableSmtpUrl(),
        AGENCY_EMAIL: 'equipe@agence.example',
        ALERT_WEBHOOK_URL: hook.url,
        DELIVERY_RETRY_BASE_MS: '20',
        DELIVERY_RETRY_MAX_MS: '40',
        DELIVERY_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      },
      logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream),
      dispatch: true,
      // Rounds driven fast: an alert check every 20 ms, many of them while the lead dies.
      dispatcherTimings: { pollMs: 20, alertCheckMs: 20, alertAfterAttempts: 2 },
    });
    const answer = await harness.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: validContact,
    });
    expect(answer.statusCode).toBe(200);
    const [entry] = await harness.store.list();

    // The lead dies, and an alert check after that finds its two dead steps (rounds, not a sleep).
    const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const underAlert = () =>
      logged().filter(
        (line) => line.msg === 'delivery: dead step, under an alert already sent to the agency',
      );
    await vi.waitFor(
      async () => {
        expect((await harness.store.find(entry!.lead.id))?.status).toBe('dead');
        expect(underAlert()).toHaveLength(2);
      },
      { timeout: 20_000, interval: 50 },
    );

    // One alert, by the channel that does not depend on SMTP, saying what to check and what waits.
    expect(hook.received).toHaveLength(1);
    const { text } = JSON.parse(hook.received[0]!.body) as { text: string };
    // The server holds every e-mail, so the alert names each e-mail destination and counts the
    // lead's two steps.
    expect(text).toContain('Livraison bloquée : le service d’envoi smtp ne répond pas');
    expect(text).toContain('ECONNREFUSED');
    // Its times in French, Paris time, whole: masking keeps its hands off them.
    expect(text).toMatch(
      /ne répond pas depuis le \d{1,2}(er)? \p{L}+ \d{4} à \d{1,2}\u00a0h\u00a0\d{2} \(heure de Paris\)/u,
    );
    expect(text).not.toContain('******');
    expect(text).toContain(
      'smtp ne répond pas : vérifier que le service est joignable à l’adresse que donne SMTP_URL',
    );
    expect(text).toContain('2 demandes attendent');

    // The log: no stack trace, the cause opened once, however many attempts and checks went by.
    expect(lines.filter((line) => /\n\s+at |"stack"/.test(line))).toEqual([]);
    expect(logged().filter((line) => line.msg === 'delivery alert opened')).toMatchObject([
      { alert: 'smtp:smtp:email:unreachable' },
    ]);
    expect(
      logged().filter(
        (line) => line.msg === 'delivery: dead step listed in an alert to the agency',
      ),
    ).toEqual([]);
  }, 60_000);
});
