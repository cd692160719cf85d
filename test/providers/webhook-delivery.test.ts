import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryStep } from '../../src/kernel/lead/deliveries.ts';
import { webhookDestinationName } from '../../src/providers/webhooks/webhook-destination.ts';
import { webhookIdFor } from '../../src/providers/webhooks/webhook-message.ts';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact, type TestApp } from '../helpers/app.ts';
import { startSmtpSink, unreachableSmtpUrl, type SmtpSink } from '../helpers/smtp-sink.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';

/*
 * docs/webhooks.md, "Delivery and retries": each webhook URL is one more destination of the
 * dispatcher (docs/delivery.md), a journaled step per lead with its own retries. Real parts only: the
 * app on a real journal, its dispatcher running, e-mails to a real SMTP server, webhooks to a real
 * loopback receiver that checks every signature with the standardwebhooks package. Retry delays are
 * scaled down (DELIVERY_RETRY_BASE_MS) so that an outage of seconds stands for one of minutes.
 */

let receiver: WebhookReceiver;
let sink: SmtpSink;
let t: TestApp | undefined;
beforeEach(async () => {
  [receiver, sink] = await Promise.all([startWebhookReceiver(), startSmtpSink()]);
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await Promise.all([receiver.close(), sink.close()]);
});

function webhookEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DELIVERY: 'queued',
    MAIL_PROVIDER: 'smtp',
    SMTP_URL: sink.url,
    WEBHOOK_URLS: receiver.url,
    WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    // The receivers of these tests listen on 127.0.0.1, refused by default (docs/webhooks.md, SSRF).
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DELIVERY_RETRY_BASE_MS: '100',
    DELIVERY_RETRY_MAX_MS: '400',
    ...extra,
  };
}

/**
 * The dispatcher's loop driven fast (docs/quality.md, « Proving an absence »): a look for due
 * steps every 20 ms when idle; where alerts are the point, for alerts to send every 50 ms (every
 * 5 s in a server), so one alert check at least every third round.
 */
const ROUNDS = { pollMs: 20 };
const TIMINGS = { ...ROUNDS, alertCheckMs: 50 };

const destination = () => webhookDestinationName(new URL(receiver.url));

/** Six different leads of the three kinds, as six people would send them. */
function sixLeads() {
  return [1, 2].flatMap((n) => [
    ['/api/contact', { ...validContact, EMAIL: `marie${n}@example.fr` }],
    ['/api/subscribe', { email: `lea${n}@example.fr`, firstName: 'Léa' }],
    ['/api/audit', { ...validAudit, email: `paul${n}@example.fr` }],
  ]) as [string, Record<string, unknown>][];
}

async function send(app: TestApp, leads: [string, Record<string, unknown>][]) {
  for (const [path, body] of leads) {
    expect((await postJson(app.app, path, body)).statusCode).toBe(200);
  }
}

async function stepsOf(app: TestApp): Promise<DeliveryStep[]> {
  const entries = await app.store.list();
  return (await Promise.all(entries.map((e) => app.store.deliveries.steps(e.lead.id)))).flat();
}

const isWebhook = (step: DeliveryStep) => step.provider === 'webhook';

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 20_000) {
  await vi.waitFor(async () => expect(await check(), `still waiting for: ${what}`).toBe(true), {
    timeout: ms,
    interval: 50,
  });
}

/**
 * `count` more rounds of the dispatcher's loop, each a look for due steps (and for alerts), then
 * its stop, which waits for every attempt in flight: a duplicate or a retry that was coming has
 * arrived by then. Counted rounds, not a sleep: the proof holds however slow the machine is.
 */
async function afterRounds(app: TestApp, count = 20): Promise<void> {
  const { dispatcher } = app.app;
  const from = dispatcher.rounds();
  await until(`${count} more rounds of the dispatcher`, () => dispatcher.rounds() >= from + count);
  await dispatcher.stop();
}

/**
 * Each e-mail about a lead the SMTP server received, by Message-ID: a second copy would show twice.
 * The agency's alerts about the receiver (docs/delivery.md, « Alerts ») go out on their own clock
 * and are left out.
 */
function messageIds(): string[] {
  return sink.received
    .map((mail) => mail.email.messageId ?? '(none)')
    .filter((id) => !id.startsWith('<alert-'));
}

describe('webhooks as delivery destinations (docs/webhooks.md)', () => {
  it('a receiver down for a while receives every lead after recovery, each exactly once by webhook-id; the e-mails go out meanwhile, once each', async () => {
    await receiver.stop();
    t = await buildTestApp({ env: webhookEnv(), dispatch: true, dispatcherTimings: ROUNDS });
    const app = t;
    await send(app, sixLeads());

    await until('every e-mail step done while the receiver is down', async () =>
      (await stepsOf(app)).filter((s) => !isWebhook(s)).every((s) => s.status === 'done'),
    );
    // The outage goes on across several retries of each webhook step.
    await until('every webhook step retried during the outage', async () =>
      (await stepsOf(app)).filter(isWebhook).every((s) => s.attempts > 1),
    );
    const during = await stepsOf(app);
    expect(during.filter(isWebhook).map((s) => s.status)).toEqual(Array(6).fill('retrying'));
    expect(Math.min(...during.filter(isWebhook).map((s) => s.attempts))).toBeGreaterThan(1);
    const mailsDuringOutage = messageIds();

    await receiver.start();
    await until('every webhook step done after recovery', async () =>
      (await stepsOf(app)).filter(isWebhook).every((s) => s.status === 'done'),
    );
    await afterRounds(app); // a duplicate on its way, or a step claimed again, would show now

    const leadIds = (await app.store.list()).map((entry) => entry.lead.id);
    const expectedIds = leadIds.map((id) => webhookIdFor(id, destination())).sort();
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(expectedIds);
    expect(receiver.received.map((r) => r.verifyError)).toEqual(Array(6).fill(undefined));
    expect(messageIds()).toEqual(mailsDuringOutage);
    expect(new Set(messageIds()).size).toBe(messageIds().length);
    expect((await app.store.list()).map((entry) => entry.status)).toEqual(
      Array(6).fill('delivered'),
    );
  });

  it('a receiver answering 500 forever: dead after DELIVERY_MAX_ATTEMPTS, one alert e-mail, the e-mails sent once', async () => {
    receiver.answer = 500;
    t = await buildTestApp({
      env: webhookEnv({ DELIVERY_MAX_ATTEMPTS: '3' }),
      dispatch: true,
      dispatcherTimings: TIMINGS,
    });
    const app = t;
    await send(app, sixLeads().slice(0, 1));
    const [entry] = await app.store.list();
    const leadId = entry!.lead.id;

    await until('the webhook step is dead', async () =>
      (await stepsOf(app)).some((s) => isWebhook(s) && s.status === 'dead'),
    );
    const alerts = () => sink.received.filter((mail) => mail.email.subject?.includes('abandonné'));
    await until('the alert e-mail', () => alerts().length > 0, 15_000);
    // Sixty more rounds of the dispatcher, twenty alert checks at least: nothing more is sent.
    await afterRounds(app, 60);

    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual(
      Array(3).fill(webhookIdFor(leadId, destination())),
    );
    expect(alerts()).toHaveLength(1);
    // The lead by name, with a link to its page, and what failed in plain words.
    expect(alerts()[0]!.email.subject).toBe('1 envoi abandonné : Marie Dupont');
    expect(alerts()[0]!.email.text).toContain('Marie Dupont, reçue le');
    expect(alerts()[0]!.email.text).toContain(`/equipe/prospects/${leadId}`);
    expect(alerts()[0]!.email.text).toContain('le webhook vers 127.0.0.1 répond 500');
    expect(alerts()[0]!.email.text).toContain(`${destination()}, 3 essais`);
    const steps = await stepsOf(app);
    expect(steps.filter((s) => !isWebhook(s)).map((s) => s.status)).toEqual(['done', 'done']);
    expect(sink.received.filter((mail) => mail !== alerts()[0])).toHaveLength(2);
  });

  it('a receiver answering 410 Gone: dead at its first attempt, one alert e-mail, no retry', async () => {
    receiver.answer = 410;
    // The app's clock, moved on by hand past the retry delays below.
    let ahead = 0;
    t = await buildTestApp({
      env: webhookEnv({ DELIVERY_MAX_ATTEMPTS: '5' }),
      dispatch: true,
      // The loop's own pace (a look every second): polled every 20 ms, the dead step's alert
      // check can run before the « destination gone » alert is recorded, and a second alert goes
      // out (docs/quality.md, « Proving an absence »).
      dispatcherTimings: { alertCheckMs: 50 },
      now: () => new Date(Date.now() + ahead),
    });
    const app = t;
    await send(app, sixLeads().slice(0, 1));

    // One alert per cause (docs/delivery.md, « Alerts »): the receiver is gone, and the lead it
    // held back is counted there, not in a second e-mail about the dead step.
    const alerts = () =>
      sink.received.filter((mail) => mail.email.subject?.startsWith('Livraison') ?? false);
    await until('the alert e-mail', () => alerts().length > 0, 15_000);
    // Ten times the longest retry delay (DELIVERY_RETRY_MAX_MS) later, and rounds after that: a
    // dead step is never claimed again.
    ahead += 10 * 400;
    await afterRounds(app, 3);

    const webhookSteps = (await stepsOf(app)).filter(isWebhook);
    expect(webhookSteps.map((s) => [s.status, s.attempts])).toEqual([['dead', 1]]);
    expect(receiver.received).toHaveLength(1);
    expect(alerts()).toHaveLength(1);
    expect(alerts()[0]!.email.subject).toBe(
      'Livraison bloquée : le webhook vers 127.0.0.1 répond 410',
    );
    expect(alerts()[0]!.email.text).toContain('ce destinataire n’existe plus');
    expect(alerts()[0]!.email.text).toContain('0 demande attend, 1 demande abandonnée');
    expect(alerts()[0]!.email.text).toContain('« Relancer » sur la fiche');
  });

  it('e-mails that cannot go out do not hold the webhooks: each lead reaches the receiver once', async () => {
    t = await buildTestApp({
      env: webhookEnv({ SMTP_URL: await unreachableSmtpUrl() }),
      dispatch: true,
      dispatcherTimings: ROUNDS,
    });
    const app = t;
    await send(app, sixLeads());
    await until('every webhook step done', async () =>
      (await stepsOf(app)).filter(isWebhook).every((s) => s.status === 'done'),
    );
    await afterRounds(app);
    expect(receiver.received).toHaveLength(6);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(6);
    const mailSteps = (await stepsOf(app)).filter((s) => !isWebhook(s));
    expect(mailSteps.every((s) => s.status === 'pending' || s.status === 'retrying')).toBe(true);
  });

  it('DELIVERY=sync: the person is answered once the e-mails are handed over; a receiver that is down gets the lead later', async () => {
    await receiver.stop();
    t = await buildTestApp({
      env: webhookEnv({ DELIVERY: 'sync' }),
      dispatch: true,
      dispatcherTimings: ROUNDS,
    });
    const app = t;
    expect((await postJson(app.app, '/api/contact', validContact)).statusCode).toBe(200);
    expect(sink.received).toHaveLength(2);

    await receiver.start();
    await until('the webhook step done', async () =>
      (await stepsOf(app)).filter(isWebhook).every((s) => s.status === 'done'),
    );
    await afterRounds(app);
    expect(receiver.received).toHaveLength(1);
    expect(sink.received).toHaveLength(2);
  });
});
