import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { replayLeads } from '../../../src/cli/delivery-commands.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../../helpers/fake-brevo.ts';

/*
 * docs/delivery.md on the loopback Brevo stand-in, scaled down from the issue's figures (bench/ keeps
 * the full-size ones): DELIVERY=queued answers once the lead is journaled, the dispatcher delivers
 * within the shared rate budget (a 429's pause held by every call, the wait for a slot not charged to
 * the call's deadline), retries after an outage with no command run, and never sends an e-mail twice.
 */
let fake: FakeBrevo;
let harness: TestApp | undefined;

beforeEach(async () => {
  fake = await startFakeBrevo('k');
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await fake.close();
});

async function start(env: Record<string, string> = {}) {
  harness = await buildTestApp({
    env: {
      DELIVERY: 'queued',
      MAIL_PROVIDER: 'brevo',
      BREVO_API_KEY: 'k',
      BREVO_API_URL: fake.url,
      BREVO_NEWSLETTER_LIST_ID: '8',
      PROVIDER_TIMEOUT_MS: '1000',
      DELIVERY_RETRY_BASE_MS: '200',
      DELIVERY_RETRY_MAX_MS: '1000',
      ...env,
    },
    dispatch: true,
  });
  return harness;
}

const subscriber = (i: number) => ({ email: `abonne-${i}@example.fr`, firstName: 'Léa' });

async function post(url: string, payload: object) {
  const started = performance.now();
  const response = await harness!.app.inject({ method: 'POST', url, payload });
  return { status: response.statusCode, ms: performance.now() - started };
}

/** How many leads of the journal are not delivered yet. */
async function undelivered(): Promise<number> {
  return (await harness!.store.list()).filter((entry) => entry.status !== 'delivered').length;
}

/** Single opt-in sign-ups, one contact call each (docs/consent.md), all delivered in the end. */
async function deliveredSignUps(count: number, env: Record<string, string>) {
  await start({ NEWSLETTER_DOUBLE_OPT_IN: 'false', ...env });
  for (let i = 0; i < count; i += 1) {
    expect((await post('/api/subscribe', subscriber(i))).status).toBe(200);
  }
  await expect.poll(undelivered, { timeout: 30_000 }).toBe(0);
}

const idempotencyKeys = () =>
  fake.sent.map((mail) => (mail.headers as { idempotencyKey: string }).idempotencyKey);

describe('DELIVERY=queued on the Brevo stand-in (docs/delivery.md)', () => {
  it('a burst of sign-ups at twice the provider’s limit: answered at once, delivered within the budget, each once', async () => {
    fake.limit({ contactsPerSecond: 10 });
    // Single opt-in: each sign-up is a contact call at once (docs/consent.md). A call that outlives
    // PROVIDER_TIMEOUT_MS is sent again (docs/delivery.md): on a loaded machine the stand-in's answer
    // may take more than this file's 1 s, so this test gives it 5 s to count each contact once.
    await start({
      BREVO_CONTACTS_PER_SECOND: '8',
      NEWSLETTER_DOUBLE_OPT_IN: 'false',
      PROVIDER_TIMEOUT_MS: '5000',
    });
    const answers = [];
    for (let i = 0; i < 24; i += 1) {
      answers.push(post('/api/subscribe', subscriber(i)));
      await sleep(50); // 20 a second
    }
    const settled = await Promise.all(answers);
    expect(settled.map((answer) => answer.status)).toEqual(Array(24).fill(200));

    await expect.poll(undelivered, { timeout: 20_000 }).toBe(0);
    const contacts = fake.requestsTo('/contacts').filter((request) => request.headers['api-key']);
    const addresses = contacts.map((request) => (request.body as { email: string }).email);
    // The budget is respected, not discovered: at most a stray 429 at a window's edge.
    expect(fake.rateLimited).toBeLessThan(3);
    expect(new Set(addresses).size).toBe(24);
    expect(addresses.length).toBe(24 + fake.rateLimited);
    expect(fake.sent).toHaveLength(24);
    expect(new Set(idempotencyKeys()).size).toBe(24);
  });

  it('after a 429, no call reaches Brevo before its pause ends, slots reserved earlier included', async () => {
    // A provider stricter than the budget: 1 contact call a second where leadgate allows 2, and a
    // 429 pauses the account for 2 s. The calls reserved for 1.5 s later fall inside that pause.
    fake.limit({ contactsPerSecond: 1, pauseSeconds: 2 });
    await deliveredSignUps(4, { BREVO_CONTACTS_PER_SECOND: '2', PROVIDER_TIMEOUT_MS: '8000' });
    expect(fake.rateLimited).toBeGreaterThan(0);
    expect(fake.callsDuringPause).toBe(0);
    expect(fake.contacts.size).toBe(4);
  });

  it('a step waiting for its budget slot still has its whole deadline for the call', async () => {
    // 2 contact calls per 1.5 s: the third waits about 1.5 s for its slot, then Brevo takes 1 s to
    // answer. Were the wait charged to the 2 s deadline, it would fail « nothing within ».
    fake.limit({ answerAfterMs: 1000 });
    await deliveredSignUps(3, { BREVO_CONTACTS_PER_SECOND: '2', PROVIDER_TIMEOUT_MS: '2000' });
    const steps = await Promise.all(
      (await harness!.store.list()).map((entry) => harness!.store.deliveries.steps(entry.lead.id)),
    );
    const contactSteps = steps.flat().filter((step) => step.destination === 'crm-contact');
    expect(contactSteps.map((step) => [step.status, step.attempts, step.lastError])).toEqual(
      Array(3).fill(['done', 1, null]),
    );
    expect(fake.requestsTo('/contacts')).toHaveLength(3);
  });

  it('Brevo answering 503 for a while: every lead accepted meanwhile is delivered after, once, with no command', async () => {
    await start({ NEWSLETTER_DOUBLE_OPT_IN: 'false' });
    fake.script('/contacts', { status: 503, body: { code: 'unavailable', message: 'down' } });
    fake.script('/smtp/email', { status: 503, body: { code: 'unavailable', message: 'down' } });
    for (let i = 0; i < 5; i += 1) {
      expect((await post('/api/subscribe', subscriber(i))).status).toBe(200);
    }
    // The outage lasts until the dispatcher has tried and failed, however long that takes on a
    // busy machine (docs/quality.md, « Waits sized for a loaded machine »).
    await expect
      .poll(async () => (await harness!.store.list({ statuses: ['failed'] })).length)
      .toBeGreaterThan(0);
    expect((await harness!.store.list({ statuses: ['delivered'] })).length).toBe(0);

    fake.script('/contacts', undefined);
    fake.script('/smtp/email', undefined);
    await expect.poll(undelivered, { timeout: 15_000 }).toBe(0);
    expect(fake.contacts.size).toBe(5);
    expect(fake.sent).toHaveLength(5);
    expect(new Set(idempotencyKeys()).size).toBe(5);
  });

  it('a Brevo that answers after the deadline: no e-mail twice, even replayed after its idempotency window', async () => {
    await start();
    fake.limit({ answerAfterMs: 1500 });
    expect((await post('/api/contact', validContact)).status).toBe(200);
    // Every call outlasts the 1 s deadline now: once one of the two e-mails is called again, the
    // dispatcher has given up on a call that Brevo carries out anyway. Then Brevo recovers.
    await expect.poll(() => fake.requestsTo('/smtp/email').length).toBeGreaterThan(2);
    fake.limit({ answerAfterMs: 0 });
    await expect.poll(undelivered, { timeout: 15_000 }).toBe(0);
    // One confirmation and one notification, whatever the number of calls the timeouts caused.
    expect(fake.sent).toHaveLength(2);

    // An hour later Brevo has forgotten the keys: the journal has not, so nothing is asked again.
    fake.forgetIdempotencyKeys();
    const calls = fake.requests.length;
    expect(await replayLeads(harness!.config, new PassThrough())).toEqual({
      delivered: 0,
      failed: 0,
    });
    expect(fake.requests).toHaveLength(calls);
    expect(fake.sent).toHaveLength(2);
  });
});
