import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.ts';
import { hasPostgres, type TestDialect } from '../helpers/postgres-databases.ts';
import { sharedDatabase, subscribeLead, type SharedDatabase } from '../helpers/test-stores.ts';

/** Issue 5: the same Store behaviour on SQLite and on PostgreSQL, including between several nodes. */
const dialects: TestDialect[] = hasPostgres() ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(dialects)('Store on %s (issue 5: dialect parity)', (dialect) => {
  let database: SharedDatabase;
  afterEach(async () => database?.close());

  /**
   * Stores that share one database, as nodes do. A SQLite deployment is one node: its "nodes" here are
   * one store (two better-sqlite3 handles in one thread would wait on each other's locks); SQLite
   * across processes is covered by test/scale/migrate-processes.test.ts.
   */
  async function nodes(count: number): Promise<Store[]> {
    database = await sharedDatabase(dialect);
    const stores: Store[] = [];
    for (let i = 0; i < count; i += 1) {
      stores.push(dialect === 'sqlite' && stores[0] ? stores[0] : await database.open());
    }
    return stores;
  }

  it('journals a lead as pending, then delivered, and says whether its address was known', async () => {
    const [store] = await nodes(1);
    const first = subscribeLead('Lea@Example.fr');
    const second = subscribeLead('lea@example.fr');
    await store!.record(first);
    await store!.record(second);
    expect((await store!.list({ statuses: ['pending'] })).map((e) => e.lead.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect(await store!.markDelivered(first.id, 'ok')).toEqual({ alreadyKnown: false });
    expect(await store!.markDelivered(second.id, 'ok')).toEqual({ alreadyKnown: true });
    const [entry] = await store!.list({ statuses: ['delivered'] });
    expect(entry).toMatchObject({ status: 'delivered', attempts: 1, providerAnswer: 'ok' });
    expect(entry!.lead).toEqual(first);
  });

  it('one new address delivered at once on two nodes: exactly one existing: false', async () => {
    const stores = await nodes(2);
    const leads = Array.from({ length: 12 }, () => subscribeLead('meme@example.fr'));
    for (const lead of leads) await stores[0]!.record(lead);
    const answers = await Promise.all(
      leads.map((lead, i) => stores[i % 2]!.markDelivered(lead.id, 'ok')),
    );
    expect(answers.filter((answer) => !answer.alreadyKnown)).toHaveLength(1);
  });

  it.skipIf(dialect === 'sqlite')(
    'applies its migrations once when two nodes start at the same time',
    async () => {
      await nodes(0);
      const stores = await Promise.all([database.open(), database.open()]);
      const lead = subscribeLead('depart@example.fr');
      await stores[0]!.record(lead);
      expect((await stores[1]!.list()).map((entry) => entry.lead.id)).toEqual([lead.id]);
    },
  );

  it('replay claims: failed and stale pending leads, oldest first, each once across nodes', async () => {
    const stores = await nodes(2);
    const failed = Array.from({ length: 10 }, (_, i) =>
      subscribeLead(`f${i}@example.fr`, new Date(Date.now() - 60_000 + i)),
    );
    const fresh = subscribeLead('frais@example.fr', new Date());
    for (const lead of [...failed, fresh]) await stores[0]!.record(lead);
    for (const lead of failed.slice(0, 5)) await stores[0]!.markFailed(lead.id, 'boom');
    // failed[5..9] stay pending from a minute ago: a crash left them; `fresh` may still be in flight.
    const lease = {
      staleBefore: new Date(Date.now() - 10_000),
      leaseUntil: new Date(Date.now() + 60_000),
    };
    const claimed: string[][] = [[], []];
    await Promise.all(
      stores.map(async (store, node) => {
        for (let entry; (entry = await store.claimForReplay(lease));)
          claimed[node]!.push(entry.lead.id);
      }),
    );
    const all = [...claimed[0]!, ...claimed[1]!];
    expect(all.sort()).toEqual(failed.map((lead) => lead.id).sort());
    expect(claimed[0]!.length + claimed[1]!.length).toBe(10);
    // Leased: a replay starting now on either node finds nothing left to take.
    expect(await stores[1]!.claimForReplay(lease)).toBeUndefined();
  });

  it('a replay run walks the journal once: `after` moves past the leads it already tried', async () => {
    const [store] = await nodes(1);
    const leads = [0, 1, 2].map((i) =>
      subscribeLead(`w${i}@example.fr`, new Date(Date.now() - 60_000 + i)),
    );
    for (const lead of leads) {
      await store!.record(lead);
      await store!.markFailed(lead.id, 'boom');
    }
    const past = new Date(Date.now() - 1000);
    const base = { staleBefore: new Date(), leaseUntil: past };
    const first = await store!.claimForReplay(base);
    expect(first?.lead.id).toBe(leads[0]!.id);
    const after = { receivedAt: first!.lead.receivedAt, id: first!.lead.id };
    expect((await store!.claimForReplay({ ...base, after }))?.lead.id).toBe(leads[1]!.id);
    // An expired lease (leaseUntil in the past) leaves the first lead claimable by a new run.
    expect((await store!.claimForReplay(base))?.lead.id).toBe(leads[0]!.id);
  });

  it('counts rate-limit hits across nodes in a fixed window, then starts again', async () => {
    const stores = await nodes(2);
    const hits = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        stores[i % 2]!.rateLimits.hit('POST /api/contact 10.0.0.1', 400),
      ),
    );
    expect(hits.map((hit) => hit.hits).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(new Set(hits.map((hit) => hit.resetAt.getTime())).size).toBe(1);
    expect((await stores[0]!.rateLimits.hit('POST /api/contact 10.0.0.2', 400)).hits).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect((await stores[1]!.rateLimits.hit('POST /api/contact 10.0.0.1', 400)).hits).toBe(1);
  });
  it('purges the leads received before a date, with their hand-offs (retention)', async () => {
    const [store] = await nodes(1);
    const old = subscribeLead('ancien@example.fr', new Date('2022-01-01T00:00:00Z'));
    const recent = subscribeLead('recent@example.fr');
    await store!.record(old);
    await store!.record(recent);
    await store!.handoffs.record(old.id, 'notification', new Date('2022-01-01T00:00:01Z'));
    expect(await store!.purgeReceivedBefore(new Date('2023-01-01T00:00:00Z'))).toBe(1);
    expect((await store!.list()).map((entry) => entry.lead.id)).toEqual([recent.id]);
    expect(await store!.find(old.id)).toBeUndefined();
  });
  it('keeps a provider error that quotes a NUL byte (PostgreSQL text refuses NUL)', async () => {
    const [store] = await nodes(1);
    const lead = subscribeLead('nul@example.fr');
    await store!.record(lead);
    await store!.markFailed(lead.id, 'SMTP said \u0000\u00ff garbage');
    const entry = await store!.find(lead.id);
    expect(entry).toMatchObject({ status: 'failed' });
    expect(entry!.lastError).toBe('SMTP said \uFFFD\u00ff garbage');
  });
});
