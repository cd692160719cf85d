import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { validContact } from '../helpers/app.ts';
import {
  createTestDatabase,
  hasPostgres,
  type TestDatabase,
} from '../helpers/postgres-databases.ts';
import { acceptLead, subscribeLead } from '../helpers/test-stores.ts';
import { postJson, runLeadgate, startNode, type LeadgateNode } from './leadgate-node.ts';

/**
 * docs/deployment.md: two `leadgate serve` processes on one PostgreSQL database, as behind a load balancer.
 * Whatever node a request lands on, callers see one service. Each test sends from its own client
 * address (X-Forwarded-For from a loopback proxy named in TRUST_PROXY) so the rate limit of one does not spill onto another.
 */
describe.skipIf(!hasPostgres())('two nodes on one PostgreSQL (docs/deployment.md)', () => {
  let database: TestDatabase;
  let nodes: LeadgateNode[] = [];
  let journal: Store;
  const RATE_LIMIT = 6;

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      TRUST_PROXY: '127.0.0.1,::1',
    };
    nodes = await Promise.all([startNode(env), startNode(env)]);
    journal = await createStore(loadConfig({ DATABASE_URL: database.url }));
  });

  afterAll(async () => {
    await journal?.close();
    await Promise.all(nodes.map((node) => node.stop()));
    await database?.drop();
  });

  const from = (client: string) => ({ 'x-forwarded-for': client });

  /** The leads whose e-mails reached some node's outbox: the ids in `<day>-<lead id>-<role>.eml`. */
  function deliveredLeadIds(): string[] {
    const names = nodes.flatMap((node) => node.outbox());
    return [...new Set(names.map((name) => name.slice(11).replace(/-[a-z]+\.eml$/, '')))];
  }

  it('the same new address subscribed on both at once: one existing: false, one existing: true', async () => {
    for (let round = 0; round < 4; round += 1) {
      const body = { email: `simultane-${round}@example.fr`, firstName: 'Léa' };
      const answers = await Promise.all(
        nodes.map((node) => postJson(node, '/api/subscribe', body, from(`10.0.1.${round + 1}`))),
      );
      expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
      const bodies = await Promise.all(answers.map((answer) => answer.json()));
      expect(bodies.map((b) => b.existing).sort()).toEqual([false, true]);
    }
  });

  it('the same Idempotency-Key sent to both at once: one lead, one delivery, the same answer', async () => {
    const key = `cle-${Date.now()}`;
    const body = { ...validContact, EMAIL: 'cle-partagee@example.fr' };
    const answers = await Promise.all(
      nodes.map((node) =>
        postJson(node, '/api/contact', body, { ...from('10.0.2.1'), 'idempotency-key': key }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    // The same answer from both nodes: the first one's, reference included.
    const [first, second] = await Promise.all(answers.map((answer) => answer.json()));
    expect(first).toMatchObject({ success: true, reference: expect.any(String) });
    expect(second).toEqual(first);
    const journaledNow = async () =>
      (await journal.list()).filter(
        (entry) => entry.lead.kind === 'contact' && entry.lead.data.EMAIL === body.EMAIL,
      );
    expect(await journaledNow()).toHaveLength(1);
    // Queued delivery (docs/delivery.md): the answers leave once the lead is journaled, and one of
    // the two nodes' dispatchers delivers it shortly after.
    const journaled = await vi.waitFor(
      async () => {
        const entries = await journaledNow();
        expect(entries[0]).toMatchObject({ status: 'delivered' });
        return entries;
      },
      { timeout: 45_000, interval: 100 },
    );
    expect(journaled).toHaveLength(1);
    expect(journaled[0]).toMatchObject({ status: 'delivered', attempts: 1 });
    // Its confirmation and its notification, once each, whichever node sent them (leads of the
    // other tests may still be delivered meanwhile: only this lead's files are counted).
    const files = nodes
      .flatMap((node) => node.outbox())
      .filter((name) => name.includes(journaled[0]!.lead.id));
    expect(files).toHaveLength(2);
    expect(new Set(files).size).toBe(2);
  }, 60_000);

  it('counts the rate limit across both nodes: the client gets RATE_LIMIT answers, not twice as many', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 4; i += 1) {
      const node = nodes[i % 2]!;
      const answer = await postJson(
        node,
        '/api/subscribe',
        { email: `limite-${i}@example.fr`, firstName: 'Léa' },
        from('10.0.3.1'),
      );
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect((await answer.json()).error.code).toBe('rate_limited');
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    }
    expect(statuses).toEqual([
      ...Array<number>(RATE_LIMIT).fill(200),
      ...Array<number>(4).fill(429),
    ]);
    // Another client is not affected, on either node.
    const other = await postJson(
      nodes[1]!,
      '/api/subscribe',
      { email: 'autre@example.fr', firstName: 'Léa' },
      from('10.0.3.2'),
    );
    expect(other.status).toBe(200);
  });

  it('leads replay started on both nodes at once: each waiting lead delivered once', async () => {
    const failed = Array.from({ length: 8 }, (_, i) => subscribeLead(`rejouer-${i}@example.fr`));
    for (const lead of failed) await acceptLead(journal, lead);
    const runs = await Promise.all(
      nodes.map((node) =>
        runLeadgate(['leads', 'replay'], {
          DATABASE_URL: database.url,
          DATA_DIR: node.dataDir,
          MAIL_PROVIDER: 'outbox',
        }),
      ),
    );
    const codes = runs.map((run) => run.code);
    expect(codes).toEqual([0, 0]);
    const entries = (await journal.list()).filter((entry) =>
      failed.some((lead) => lead.id === entry.lead.id),
    );
    expect(entries.map((entry) => [entry.status, entry.attempts])).toEqual(
      failed.map(() => ['delivered', 1]),
    );
    // A subscription is one e-mail: each lead's file is in exactly one outbox, written once.
    const written = nodes
      .flatMap((node) => node.outbox())
      .filter((name) => failed.some((lead) => name.includes(lead.id)));
    expect(written).toHaveLength(failed.length);
    // Leads of the other tests may still be delivered by the nodes meanwhile: only these are counted.
    expect(
      deliveredLeadIds()
        .filter((id) => failed.some((lead) => lead.id === id))
        .sort(),
    ).toEqual(failed.map((lead) => lead.id).sort());
  });
});
