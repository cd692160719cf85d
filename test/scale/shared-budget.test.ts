import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import { validContact } from '../helpers/app.ts';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import {
  createTestDatabase,
  hasPostgres,
  type TestDatabase,
} from '../helpers/postgres-databases.ts';
import { postJson, startNode, type LeadgateNode } from './leadgate-node.ts';

/*
 * docs/delivery.md, « Provider rate budgets »: two `leadgate serve` processes on one PostgreSQL share
 * one Brevo budget. The stand-in enforces Brevo's 10 contact calls a second per account; leadgate's
 * budget is set just under it (9). Were each node counting its own, the two would send up to 18 a
 * second and the stand-in would answer 429 to about half the burst.
 */
const BREVO_LIMIT = 10;
const SIGN_UPS = 60;
const PER_SECOND = 20;

describe.skipIf(!hasPostgres())('two nodes, one Brevo budget (docs/delivery.md)', () => {
  let database: TestDatabase;
  let fake: FakeBrevo;
  let nodes: LeadgateNode[] = [];
  let journal: Store;

  beforeAll(async () => {
    database = await createTestDatabase();
    fake = await startFakeBrevo('k');
    fake.limit({ contactsPerSecond: BREVO_LIMIT });
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_MINUTE: '0',
      DELIVERY: 'queued',
      ...brevoStandInEnv(fake),
      BREVO_CONTACTS_PER_SECOND: String(BREVO_LIMIT - 1),
      // All 60 addresses share one domain: its hourly cap of confirmations (docs/reliability.md,
      // 20 by default) would rightly hold back 40 of them.
      CONFIRMATION_DOMAIN_PER_HOUR: '0',
    };
    nodes = await Promise.all([startNode(env), startNode(env)]);
    journal = await createStore(loadConfig({ DATABASE_URL: database.url }));
  });

  afterAll(async () => {
    await journal?.close();
    await Promise.all(nodes.map((node) => node.stop()));
    await fake?.close();
    await database?.drop();
  });

  // Known regression, to fix first: since each destination has its own lane (docs/delivery.md),
  // two nodes delivered 80 of 120 leads within this test's wait.
  it('a burst split across both: within Brevo’s limit, every lead delivered, nothing twice', async () => {
    const started = Date.now();
    const answers: Promise<Response>[] = [];
    for (let i = 0; i < SIGN_UPS; i += 1) {
      await sleep(started + (i * 1000) / PER_SECOND - Date.now());
      const body = { ...validContact, EMAIL: `partage-${i}@example.fr` };
      answers.push(postJson(nodes[i % 2]!, '/api/contact', body));
    }
    expect((await Promise.all(answers)).map((answer) => answer.status)).toEqual(
      Array(SIGN_UPS).fill(200),
    );

    await vi.waitFor(
      async () => {
        const delivered = await journal.list({ statuses: ['delivered'] });
        expect(delivered.length, nodes.map((node) => node.output()).join('\n')).toBe(SIGN_UPS);
      },
      { timeout: 45_000, interval: 200 },
    );

    const contactCalls = fake.requestsTo('/contacts');
    // The budget is respected, not discovered: at most a stray 429 where the two clocks meet.
    expect(fake.rateLimited).toBeLessThanOrEqual(2);
    const accepted = contactCalls.length - fake.rateLimited;
    expect(accepted).toBe(SIGN_UPS);
    expect(fake.contacts.size).toBe(SIGN_UPS);
    const keys = fake
      .requestsTo('/smtp/email')
      .map((r) => (r.body as { headers: { idempotencyKey: string } }).headers.idempotencyKey);
    // A contact request: its confirmation and the agency's notification.
    expect(keys).toHaveLength(2 * SIGN_UPS);
    expect(new Set(keys).size).toBe(2 * SIGN_UPS);
    expect(fake.sent).toHaveLength(2 * SIGN_UPS);
  }, 90_000);
});
