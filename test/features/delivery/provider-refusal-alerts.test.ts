import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver.ts';

/*
 * docs/delivery.md, « Alerts »: a destination that keeps failing for every lead, whether it answers
 * (SMTP 4xx/5xx, a webhook's non-2xx) or not (a timeout), is one cause, opened within 2 minutes at
 * any backlog (60 s of failures with no success between), naming every destination it holds and
 * the setting to check, its count the attempts that really failed. The clock is injected and the
 * dispatcher's rounds driven: two minutes pass in seconds.
 */
let harness: TestApp | undefined;
let sink: SmtpSink | undefined;
let hook: WebhookReceiver | undefined;
let alertHook: WebhookReceiver | undefined;

afterEach(async () => {
  await sink?.close();
  await hook?.close();
  await harness?.close();
  await alertHook?.close();
  harness = sink = hook = alertHook = undefined;
});

/** An injected clock the test moves forward. */
function clock() {
  // From the real time: what the intake journals with its own clock is due at once.
  let at = Date.now();
  return {
    now: () => new Date(at),
    advance: (ms: number) => (at += ms),
    elapsed: (from: number) => at - from,
    at: () => at,
  };
}

/** A contact request from `email`, journaled (200) before delivery. */
async function contactFrom(email: string): Promise<void> {
  const answer = await harness!.app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: { ...validContact, EMAIL: email },
  });
  expect(answer.statusCode).toBe(200);
}

const alertTexts = (receiver: WebhookReceiver) =>
  receiver.received.map((entry) => (JSON.parse(entry.body) as { text: string }).text);

describe('provider refusals are causes (docs/delivery.md, « Alerts »)', () => {
  it('an SMTP server answering 451 to everything for 2 minutes: exactly one alert, naming SMTP_URL and every e-mail destination', async () => {
    sink = await startSmtpSink({ recipientCode: () => 451 });
    alertHook = await startWebhookReceiver();
    const time = clock();
    harness = await buildTestApp({
      env: {
        DELIVERY: 'queued',
        MAIL_PROVIDER: 'smtp',
        SMTP_URL: sink.url,
        AGENCY_EMAIL: 'equipe@agence.example',
        ALERT_WEBHOOK_URL: alertHook.url,
        DELIVERY_RETRY_BASE_MS: '5000',
        DELIVERY_RETRY_MAX_MS: '10000',
        DELIVERY_MAX_ATTEMPTS: '100',
      },
      now: time.now,
      dispatch: true,
      dispatcherTimings: { pollMs: 20, alertCheckMs: 20, now: time.now },
    });
    await contactFrom(validContact.EMAIL);
    const [entry] = await harness.store.list();
    const attempts = async () =>
      (await harness!.store.deliveries.steps(entry!.lead.id)).reduce(
        (sum, step) => sum + step.attempts,
        0,
      );

    // Two minutes of 451s, in 10-second moves of the clock, each followed by the round it makes due.
    const start = time.at();
    while (time.elapsed(start) < 120_000) {
      const before = await attempts();
      time.advance(10_000);
      await vi.waitFor(async () => expect(await attempts()).toBeGreaterThan(before), {
        timeout: 20_000,
        interval: 20,
      });
    }
    await vi.waitFor(() => expect(alertHook!.received.length).toBeGreaterThan(0), {
      timeout: 20_000,
    });
    // A few more rounds: still one alert.
    for (let round = 0; round < 3; round += 1) {
      const before = await attempts();
      time.advance(10_000);
      await vi.waitFor(async () => expect(await attempts()).toBeGreaterThan(before), {
        timeout: 20_000,
      });
    }
    const texts = alertTexts(alertHook);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain('E-mail de confirmation');
    expect(texts[0]).toContain('Notification à l’équipe');
    expect(texts[0]).toContain('À corriger : SMTP_URL : smtp répond mais refuse chaque envoi');
    expect(texts[0]).toContain('451');
    // The count is every failed attempt, as the journal's steps count them.
    await vi.waitFor(async () =>
      expect((await harness!.store.alerts.open())[0]?.count).toBe(await attempts()),
    );
  }, 180_000);

  it('a hanging webhook behind a 200-lead backlog: alerted within 2 minutes of injected time, with the true count', async () => {
    hook = await startWebhookReceiver();
    hook.answer = 'hang';
    const time = clock();
    harness = await buildTestApp({
      env: {
        DELIVERY: 'queued',
        WEBHOOK_URLS: hook.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_TIMEOUT_MS: '100',
        MAIL_PROVIDER: 'outbox',
        CONFIRMATION_DOMAIN_PER_HOUR: '0',
        CONFIRMATION_INTERVAL_HOURS: '0',
        DELIVERY_RETRY_BASE_MS: '60000',
        DELIVERY_RETRY_MAX_MS: '600000',
      },
      now: time.now,
      dispatch: true,
      dispatcherTimings: { pollMs: 20, alertCheckMs: 20, slowStepMs: 50, now: time.now },
    });
    for (let i = 0; i < 200; i += 1) await contactFrom(`ligne-${i}@example.fr`);
    const webhookSteps = async () => {
      const steps = [];
      for (const entry of await harness!.store.list()) {
        for (const step of await harness!.store.deliveries.steps(entry.lead.id)) {
          if (step.destination.startsWith('webhook')) steps.push(step);
        }
      }
      return steps;
    };
    /** Every webhook step due at the injected time has been tried (its next attempt is later). */
    const drained = async () => {
      const due = (await webhookSteps()).filter(
        (step) => step.nextAttemptAt.getTime() <= time.at(),
      );
      expect(due).toHaveLength(0);
    };
    // The clock moves 10 s once every call due has hung and failed.
    const start = time.at();
    const announced = async () =>
      (await harness!.store.alerts.open()).find((alert) => alert.announcedAt !== null);
    await vi.waitFor(drained, { timeout: 60_000, interval: 50 });
    while (!(await announced())) {
      expect(time.elapsed(start), 'no alert within 2 minutes').toBeLessThanOrEqual(120_000);
      time.advance(10_000);
      await vi.waitFor(drained, { timeout: 60_000, interval: 50 });
      // The alert check that follows (every 20 ms of real time).
      await vi.waitFor(async () => expect(await harness!.store.alerts.open()).toBeDefined(), {
        timeout: 1000,
      });
    }
    const attempts = (await webhookSteps()).reduce((sum, step) => sum + step.attempts, 0);
    const open = await announced();
    expect(open!.fix).toContain('WEBHOOK_URLS');
    expect(open!.holds).toEqual([expect.stringMatching(/^webhook/)]);
    // Every hung call counted, not one per step's third attempt.
    await vi.waitFor(async () =>
      expect((await harness!.store.alerts.open())[0]?.count).toBe(
        (await webhookSteps()).reduce((sum, step) => sum + step.attempts, 0),
      ),
    );
    expect(attempts).toBeGreaterThanOrEqual(200);
    expect(open!.waiting).toBe(200);
  }, 300_000);
});
