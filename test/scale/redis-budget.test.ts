import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisRateBudgets } from '../../src/providers/brevo/redis-rate-budgets.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import { freePort } from '../helpers/postgres-cluster.ts';
import { sharedDatabase } from '../helpers/test-stores.ts';
import { hasTool } from '../helpers/tools.ts';
import { startRedisServer } from './redis-server.ts';

/*
 * docs/delivery.md, « Provider rate budgets »: with REDIS_URL the Brevo budget lives in Redis. Two
 * nodes that share nothing else (each its own SQLite journal, so no database budget in common) keep
 * within the stand-in's 10 contact calls a second together; counting apart, they would send up to 18.
 */
const BREVO_LIMIT = 10;
const SIGN_UPS = 40;

describe.skipIf(!hasTool('redis-server'))('the Brevo budget in Redis (docs/delivery.md)', () => {
  let redis: Awaited<ReturnType<typeof startRedisServer>>;
  let fake: FakeBrevo;
  let nodes: TestApp[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    fake = await startFakeBrevo('k');
    fake.limit({ contactsPerSecond: BREVO_LIMIT });
    const env = {
      REDIS_URL: redis.url,
      DELIVERY: 'queued',
      ...brevoStandInEnv(fake),
      BREVO_CONTACTS_PER_SECOND: String(BREVO_LIMIT - 1),
    };
    nodes = [
      await buildTestApp({ env, dispatch: true }),
      await buildTestApp({ env, dispatch: true }),
    ];
  });

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.close()));
    await fake?.close();
    await redis?.stop();
  });

  it('two nodes with their own journals: within Brevo’s limit together, every lead delivered once', async () => {
    const answers = [];
    for (let i = 0; i < SIGN_UPS; i += 1) {
      answers.push(
        nodes[i % 2]!.app.inject({
          method: 'POST',
          url: '/api/contact',
          payload: { ...validContact, EMAIL: `redis-budget-${i}@example.fr` },
        }),
      );
      await sleep(50); // 20 a second
    }
    expect((await Promise.all(answers)).map((answer) => answer.statusCode)).toEqual(
      Array(SIGN_UPS).fill(200),
    );
    await vi.waitFor(
      async () => {
        const delivered = await Promise.all(
          nodes.map((node) => node.store.list({ statuses: ['delivered'] })),
        );
        expect(delivered.map((leads) => leads.length)).toEqual([SIGN_UPS / 2, SIGN_UPS / 2]);
      },
      { timeout: 40_000, interval: 200 },
    );
    // Respected, not discovered: at most a stray 429 at a window's edge.
    expect(fake.rateLimited).toBeLessThanOrEqual(2);
    expect(fake.requestsTo('/contacts').length - fake.rateLimited).toBe(SIGN_UPS);
    expect(fake.contacts.size).toBe(SIGN_UPS);
    // A contact request: its confirmation and the agency's notification.
    expect(fake.sent).toHaveLength(2 * SIGN_UPS);
  }, 60_000);
});

describe('the Brevo budget while Redis is unreachable (docs/delivery.md)', () => {
  it('each call takes its slot from the database’s budget instead', async () => {
    const database = await sharedDatabase('sqlite');
    const budgets = redisRateBudgets(
      `redis://127.0.0.1:${await freePort()}`,
      500,
      (await database.open()).budgets,
    );
    try {
      const limit = { calls: 1, windowMs: 1000 };
      const first = await budgets.reserve('brevo:contacts', limit, 2000);
      const second = await budgets.reserve('brevo:contacts', limit, 2000);
      expect(first).toEqual({ reserved: true, waitMs: 0 });
      // The database's window holds the first call: the next one waits for the window to pass.
      expect(second.reserved).toBe(true);
      expect(second.waitMs).toBeGreaterThan(900);
    } finally {
      budgets.close();
      await database.close();
    }
  });
});
