import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../../helpers/fake-brevo.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver.ts';

/*
 * docs/delivery.md, « Each destination its own slots »: a destination that hangs (no answer within
 * its 60 s deadline) holds only its own lane. Every other destination of a burst of leads is
 * delivered while the hung calls are all still waiting: were the slots shared, the other steps would
 * queue behind the hung ones until their deadline, a minute later. The proof is the order of events,
 * not a stopwatch: the wait below ends long before any hung call can.
 */
const LEADS = 12;
const HANG_MS = '60000';

let fake: FakeBrevo;
let hook: WebhookReceiver;
let harness: TestApp;

afterEach(async () => {
  // Closing the stand-ins ends the hung calls, so the dispatcher stops at once.
  await fake?.close();
  await hook?.close();
  await harness?.close();
});

async function start(hanging: 'crm-contact' | 'webhook') {
  fake = await startFakeBrevo('k');
  hook = await startWebhookReceiver();
  if (hanging === 'crm-contact') fake.script('/contacts', 'hang');
  else hook.answer = 'hang';
  harness = await buildTestApp({
    env: {
      DELIVERY: 'queued',
      ...brevoStandInEnv(fake),
      PROVIDER_TIMEOUT_MS: HANG_MS,
      WEBHOOK_TIMEOUT_MS: HANG_MS,
      WEBHOOK_URLS: hook.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      CONFIRMATION_DOMAIN_PER_HOUR: '0',
    },
    dispatch: true,
    // Rounds come quickly; a step in flight for 50 ms counts as hanging (docs/delivery.md).
    dispatcherTimings: { pollMs: 20, slowStepMs: 50 },
  });
  for (let i = 0; i < LEADS; i += 1) {
    const answer = await harness.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...validContact, EMAIL: `ligne-${i}@example.fr` },
    });
    expect(answer.statusCode).toBe(200);
  }
}

/** Waits until every step of every lead but `hanging`'s is done. */
async function othersDelivered(hanging: string): Promise<void> {
  await vi.waitFor(
    async () => {
      const leads = await harness.store.list();
      expect(leads).toHaveLength(LEADS);
      const steps = (
        await Promise.all(leads.map((entry) => harness.store.deliveries.steps(entry.lead.id)))
      ).flat();
      const others = steps.filter((step) => !step.destination.startsWith(hanging));
      expect(others).toHaveLength(3 * LEADS);
      expect(others.filter((step) => step.status !== 'done')).toEqual([]);
    },
    // Far below the hung calls' deadline: nothing here waited for them.
    { timeout: 30_000, interval: 50 },
  );
}

describe('one hanging destination (docs/delivery.md, « Each destination its own slots »)', () => {
  it('Brevo’s contact calls hang: the e-mails and the webhook of every lead go out meanwhile', async () => {
    await start('crm-contact');
    await othersDelivered('crm-contact');
    expect(fake.sent).toHaveLength(2 * LEADS);
    expect(hook.received).toHaveLength(LEADS);
    // The hung contact calls are still waiting: none answered, none retried.
    expect(fake.contacts.size).toBe(0);
    const crm = await Promise.all(
      (await harness.store.list()).map(async (entry) =>
        (await harness.store.deliveries.steps(entry.lead.id)).find(
          (step) => step.destination === 'crm-contact',
        ),
      ),
    );
    expect(crm.every((step) => step?.status === 'pending')).toBe(true);
  }, 60_000);

  it('the webhook receiver hangs: the contacts and the e-mails of every lead go out meanwhile', async () => {
    await start('webhook');
    await othersDelivered('webhook:');
    expect(fake.contacts.size).toBe(LEADS);
    expect(fake.sent).toHaveLength(2 * LEADS);
    expect(hook.received.every((received) => received.status === 0)).toBe(true);
  }, 60_000);
});
