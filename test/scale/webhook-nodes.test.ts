import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/kernel/journal/store.ts';
import { webhookDestinationName } from '../../src/providers/webhooks/webhook-destination.ts';
import { webhookIdFor } from '../../src/providers/webhooks/webhook-message.ts';
import {
  createTestDatabase,
  hasPostgres,
  type TestDatabase,
} from '../helpers/postgres-databases.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';
import { postJson, startTwoNodes, type LeadgateNode } from './leadgate-node.ts';

/**
 * docs/webhooks.md and docs/delivery.md: two `leadgate serve` processes on one PostgreSQL database,
 * both dispatching. Every webhook step is leased before it is sent, so however the work falls
 * between the nodes, the receiver gets each lead once, and each node's e-mails go out once.
 */
describe.skipIf(!hasPostgres())('webhooks from two nodes on one PostgreSQL', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let nodes: LeadgateNode[] = [];
  let journal: Store;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await startWebhookReceiver();
    const env = {
      DATABASE_URL: database.url,
      DELIVERY: 'queued',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOK_URLS: receiver.url,
      WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      WEBHOOK_ALLOW_PRIVATE: 'true',
      // All 24 addresses share one domain: its hourly cap of confirmations (docs/reliability.md,
      // 20 by default) would rightly hold back the last four double opt-in e-mails.
      CONFIRMATION_DOMAIN_PER_HOUR: '0',
    };
    ({ nodes, journal, stop } = await startTwoNodes(env));
  }, 120_000);

  afterAll(async () => {
    await stop?.();
    await receiver?.close();
    await database?.drop();
  });

  it('never sends the same webhook twice; the e-mails are sent once each', async () => {
    const count = 24;
    await Promise.all(
      Array.from({ length: count }, async (_, n) => {
        const body = { email: `noeud-${n}@example.fr`, firstName: 'Léa' };
        const answer = await postJson(nodes[n % 2]!, '/api/subscribe', body);
        expect(answer.status).toBe(200);
      }),
    );
    const statuses = async () => (await journal.list()).map((entry) => entry.status);
    await expect
      .poll(statuses, { timeout: 120_000, interval: 200 })
      .toEqual(Array(count).fill('delivered'));
    // Both nodes shut down as `leadgate serve` does on SIGTERM: each dispatcher finishes the
    // attempts it has in flight before the process exits, so a second copy, were one under way,
    // has arrived by then (docs/quality.md, « Proving an absence »). The outboxes stay to be read.
    await Promise.all(
      nodes.map(async (node) => {
        const exited = new Promise((done) => node.process.once('exit', done));
        node.process.kill('SIGTERM');
        await exited;
      }),
    );

    const name = webhookDestinationName(new URL(receiver.url));
    const leadIds = (await journal.list()).map((entry) => entry.lead.id);
    expect(receiver.received.map((r) => r.headers['webhook-id']).sort()).toEqual(
      leadIds.map((id) => webhookIdFor(id, name)).sort(),
    );
    expect(receiver.received.every((r) => r.verifyError === undefined)).toBe(true);
    // Each subscription's notification and confirmation link (double opt-in, docs/consent.md),
    // each written once to one node's outbox; both nodes worked.
    expect(nodes.map((node) => node.outbox().length > 0)).toEqual([true, true]);
    const outboxes = nodes.flatMap((node) => node.outbox());
    expect(outboxes).toHaveLength(2 * count);
    expect(new Set(outboxes).size).toBe(2 * count);
  }, 150_000);
});
