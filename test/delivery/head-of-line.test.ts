import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';

/*
 * docs/delivery.md, « Each destination its own slots »: Brevo's contact calls hanging (no answer
 * for 60 s, PROVIDER_TIMEOUT_MS) use only their own lane; the e-mails and the webhook of leads
 * arriving at 2 a second keep going out, every one of them within 2 s of its lead (p99).
 */
const LEADS = 12;

let fake: FakeBrevo;
let hook: WebhookReceiver;
let harness: TestApp;

afterEach(async () => {
  // Closing the stand-in ends the hung calls, so the dispatcher stops at once.
  await fake?.close();
  await harness?.close();
  await hook?.close();
});

// Timing on a shared, loaded machine: the same run without the hang measured 1.7–5.2 s per lead
// while other suites ran beside it, so it proves nothing there. Run it alone with
// LEADGATE_TIMING_TESTS=1 (docs/performance.md).
describe.skipIf(!process.env.LEADGATE_TIMING_TESTS)(
  'one hanging destination (docs/delivery.md)',
  () => {
    it('leaves every other destination’s delay under 2 s at 2 leads a second', async () => {
      fake = await startFakeBrevo('k');
      fake.script('/contacts', 'hang');
      hook = await startWebhookReceiver();
      harness = await buildTestApp({
        env: {
          DELIVERY: 'queued',
          ...brevoStandInEnv(fake),
          PROVIDER_TIMEOUT_MS: '60000',
          WEBHOOK_URLS: hook.url,
          WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
          WEBHOOK_ALLOW_PRIVATE: 'true',
        },
        dispatch: true,
        dispatcherTimings: { pollMs: 50 },
      });
      const accepted = new Map<string, number>();
      const finished = new Map<string, number>();
      const watching = (async () => {
        while (finished.size < LEADS) {
          for (const [id, at] of accepted) {
            if (finished.has(id)) continue;
            const steps = await harness.store.deliveries.steps(id);
            const others = steps.filter((step) => step.destination !== 'crm-contact');
            if (others.length === 3 && others.every((step) => step.status === 'done')) {
              finished.set(id, performance.now() - at);
            }
          }
          await sleep(20);
        }
      })();
      for (let i = 0; i < LEADS; i += 1) {
        const sent = performance.now();
        const answer = await harness.app.inject({
          method: 'POST',
          url: '/api/contact',
          payload: { ...validContact, EMAIL: `ligne-${i}@example.fr` },
        });
        expect(answer.statusCode).toBe(200);
        const [entry] = (await harness.store.list()).filter(
          (journaled) => !accepted.has(journaled.lead.id),
        );
        accepted.set(entry!.lead.id, sent);
        await sleep(Math.max(0, sent + 500 - performance.now()));
      }
      await vi.waitFor(() => expect(finished.size).toBe(LEADS), { timeout: 20_000, interval: 50 });
      await watching;
      const delays = [...finished.values()].sort((a, b) => a - b);
      const p99 = delays[Math.ceil(delays.length * 0.99) - 1]!;
      expect(p99, delays.map(Math.round).join(', ')).toBeLessThan(2000);
      // The hung contact calls are still waiting: nothing reached the CRM.
      expect(fake.contacts.size).toBe(0);
      expect(hook.received).toHaveLength(LEADS);
    }, 60_000);
  },
);
