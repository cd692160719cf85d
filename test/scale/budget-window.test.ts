import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../../src/kernel/journal/store.ts';
import { validContact } from '../helpers/app.ts';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import {
  createTestDatabase,
  hasPostgres,
  type TestDatabase,
} from '../helpers/postgres-databases.ts';
import { hasTool } from '../helpers/tools.ts';
import { postJson, startTwoNodes, type LeadgateNode } from './leadgate-node.ts';
import { startRedisServer } from './redis-server.ts';

/*
 * docs/delivery.md, « Provider rate budgets »: two `leadgate serve` processes on one PostgreSQL,
 * each reserving the moment of its call in the shared store (the database alone, or Redis), never
 * put more than the budget's calls in any sliding second at the provider, as the stand-in counts
 * them on arrival. 300 contact requests, sent faster than the budget lets them out.
 */
const CALLS_PER_SECOND = 20;
const LEADS = 300;

describe.skipIf(!hasPostgres())('a budget that holds across nodes (docs/delivery.md)', () => {
  describe.each([
    { store: 'the database alone', redis: false },
    { store: 'Redis', redis: true },
  ])('two nodes on PostgreSQL, the budget in $store', ({ redis: withRedis }) => {
    let database: TestDatabase;
    let fake: FakeBrevo;
    let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
    let nodes: LeadgateNode[] = [];
    let journal: Store;
    let stop: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      if (withRedis && !hasTool('redis-server')) return;
      database = await createTestDatabase();
      fake = await startFakeBrevo('k');
      redis = withRedis ? await startRedisServer() : undefined;
      const env = {
        DATABASE_URL: database.url,
        RATE_LIMIT_PER_MINUTE: '0',
        DELIVERY: 'queued',
        ...brevoStandInEnv(fake),
        ...(redis && { REDIS_URL: redis.url }),
        BREVO_CONTACTS_PER_SECOND: String(CALLS_PER_SECOND),
        // The e-mails have their own budget: wide, so that the contacts' is the one that binds.
        BREVO_EMAILS_PER_SECOND: '60',
        // Every address is at one domain, whose hourly cap of confirmations is not tested here.
        CONFIRMATION_DOMAIN_PER_HOUR: '0',
        // docs/quality.md, « Waits sized for a loaded machine »: 200 requests a second to nodes on
        // two cores shared with the whole suite wait longer than the 5 s default for a connection
        // or a statement, and would be answered 500 (the journal's limits, tested on their own in
        // postgres-limits.test.ts); here the budget is under test.
        DATABASE_CONNECT_TIMEOUT_MS: '60000',
        DATABASE_STATEMENT_TIMEOUT_MS: '60000',
      };
      ({ nodes, journal, stop } = await startTwoNodes(env));
    }, 120_000);

    afterAll(async () => {
      await stop?.();
      await fake?.close();
      await redis?.stop();
      await database?.drop();
    });

    it.skipIf(withRedis && !hasTool('redis-server'))(
      `never more than ${CALLS_PER_SECOND} contact calls in any second over ${LEADS} calls`,
      async () => {
        const answers: Promise<Response>[] = [];
        fake.watchTurns();
        for (let i = 0; i < LEADS; i += 1) {
          const body = { ...validContact, EMAIL: `fenetre-${i}@example.fr` };
          answers.push(postJson(nodes[i % 2]!, '/api/contact', body));
          if (i % 10 === 9) await sleep(50); // about 200 a second, ten times the budget
        }
        const answered = await Promise.all(answers);
        const refused = await Promise.all(
          answered.filter((answer) => answer.status !== 200).map((answer) => answer.text()),
        );
        expect(refused, nodes.map((node) => node.output()).join('\n')).toEqual([]);
        await vi.waitFor(
          async () => {
            const delivered = await journal.list({ statuses: ['delivered'] });
            expect(delivered.length).toBe(LEADS);
          },
          { timeout: 90_000, interval: 500 },
        );
        expect(fake.requestsTo('/contacts')).toHaveLength(LEADS);
        expect(fake.contacts.size).toBe(LEADS);
        // The stand-in times a call when its process gets to it; a turn that came late (two cores
        // shared with the nodes, PostgreSQL and the other files) bunches calls that arrived apart.
        // Within a second shortened by the latest turn, the calls counted did arrive within a second.
        const second = 1000 - fake.latestTurnMs();
        expect(fake.busiest('/contacts', second)).toBeLessThanOrEqual(CALLS_PER_SECOND);
        // And the pace over the whole run, which no late turn can shorten by more than its own length.
        expect(fake.spanOf('/contacts') + fake.latestTurnMs()).toBeGreaterThanOrEqual(
          (LEADS / CALLS_PER_SECOND - 1) * 1000,
        );
      },
      150_000,
    );
  });
});
