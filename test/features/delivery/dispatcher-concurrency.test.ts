import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Destination } from '../../../src/kernel/lead/destination.ts';
import { createDispatcher, type Dispatcher } from '../../../src/features/delivery/dispatcher.ts';
import type { Store } from '../../../src/kernel/journal/store.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import {
  acceptLead,
  NOTIFICATION_STEP,
  sharedDatabase,
  subscribeLead,
  type SharedDatabase,
} from '../../helpers/test-stores.ts';

/*
 * docs/performance.md, "Delivery path": the loop runs DELIVERY_CONCURRENCY steps at once on a
 * backlog, and fewer while leads keep arriving, so that the people waiting for an answer come first;
 * every step is still delivered once.
 */

let shared: SharedDatabase | undefined;
let dispatcher: Dispatcher | undefined;

afterEach(async () => {
  await dispatcher?.stop();
  dispatcher = undefined;
  await shared?.close();
  shared = undefined;
});

/** The outbox notification, slowed down so that steps overlap; counts how many run at once. */
function slowNotification() {
  const delivered: string[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const destination: Destination = {
    name: NOTIFICATION_STEP.destination,
    provider: NOTIFICATION_STEP.provider,
    appliesTo: () => true,
    async deliver(lead) {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await sleep(40);
      running -= 1;
      delivered.push(lead.id);
      return 'written';
    },
  };
  return { destination, delivered, mostAtOnce: () => mostAtOnce };
}

async function backlogOf(store: Store, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const lead = subscribeLead(`personne.${index}@example.fr`);
    await acceptLead(store, lead);
    ids.push(lead.id);
  }
  return ids;
}

/** `busyConcurrency` unset: the dispatcher's own default. */
function dispatcherOn(store: Store, destination: Destination, busyConcurrency?: number) {
  return createDispatcher({
    deliveries: store.deliveries,
    destinations: [destination],
    alerts: store.alerts,
    announce: async () => {},
    siteUrl: 'https://agence.example',
    policy: { baseMs: 1000, maxMs: 60_000, maxAttempts: 5, deadAfterMs: 3_600_000 },
    timeoutMs: 5000,
    concurrency: 16,
    ...(busyConcurrency === undefined ? {} : { busyConcurrency }),
    pollMs: 20,
  });
}

/** True once every step of `ids` is done. */
async function allDelivered(store: Store, ids: readonly string[]): Promise<boolean> {
  const steps = await Promise.all(ids.map((id) => store.deliveries.steps(id)));
  return steps.every((of) => of.every((step) => step.status === 'done'));
}

describe(`the dispatcher's steps in flight (${defaultTestDialect})`, () => {
  it('runs up to DELIVERY_CONCURRENCY steps at once on a backlog, each once', async () => {
    shared = await sharedDatabase(defaultTestDialect);
    const store = await shared.open();
    const ids = await backlogOf(store, 40);
    const notification = slowNotification();
    dispatcher = dispatcherOn(store, notification.destination);
    dispatcher.start();
    await expect.poll(() => allDelivered(store, ids)).toBe(true);
    expect(notification.mostAtOnce()).toBeGreaterThan(2);
    expect(notification.mostAtOnce()).toBeLessThanOrEqual(16);
    expect([...notification.delivered].sort()).toEqual([...ids].sort());
  });

  async function deliveredWhileArriving(busyConcurrency?: number) {
    shared = await sharedDatabase(defaultTestDialect);
    const store = await shared.open();
    const ids = await backlogOf(store, 20);
    const notification = slowNotification();
    const running = dispatcherOn(store, notification.destination, busyConcurrency);
    dispatcher = running;
    // A lead accepted every 10 ms, as the intake tells the dispatcher, for the whole delivery.
    let arriving = true;
    const arrivals = (async () => {
      while (arriving) {
        running.wake();
        await sleep(10);
      }
    })();
    running.start();
    await expect.poll(() => allDelivered(store, ids)).toBe(true);
    arriving = false;
    await arrivals;
    expect([...notification.delivered].sort()).toEqual([...ids].sort());
    return notification.mostAtOnce();
  }

  it('runs at most the busy limit while leads keep arriving, each step still once', async () => {
    expect(await deliveredWhileArriving(2)).toBeLessThanOrEqual(2);
  });

  it('the busy limit is 4 unless set (docs/performance.md, "The delivery path")', async () => {
    const mostAtOnce = await deliveredWhileArriving();
    expect(mostAtOnce).toBeLessThanOrEqual(4);
    expect(mostAtOnce).toBeGreaterThan(2);
  });
});
