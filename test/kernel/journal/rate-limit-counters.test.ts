import { afterEach, describe, expect, it } from 'vitest';
import {
  createRateLimitCounters,
  type SharedRateLimitCounters,
} from '../../../src/wiring/create-rate-limit-counters.ts';
import { hasPostgres } from '../../helpers/postgres-databases.ts';
import { sharedDatabase, type SharedDatabase } from '../../helpers/test-stores.ts';

/** docs/deployment.md: with DATABASE_URL, every node counts a client's requests in one place. */
describe.skipIf(!hasPostgres())('rate-limit counters shared on PostgreSQL', () => {
  let database: SharedDatabase | undefined;
  const opened: SharedRateLimitCounters[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((counters) => counters.close()));
    await database?.close();
  });

  /** The nodes' clock: a window ends when the test moves it, not after a wait. */
  let now = new Date();

  /** Counters of `count` nodes on one migrated database. */
  async function nodes(count: number): Promise<SharedRateLimitCounters[]> {
    database = await sharedDatabase('postgres');
    await database.open();
    for (let i = 0; i < count; i += 1) {
      opened.push(createRateLimitCounters(database.config, () => now)!);
    }
    return opened;
  }

  it('counts hits across nodes in a fixed window, then starts again', async () => {
    const counters = await nodes(2);
    const hits = await Promise.all(
      Array.from({ length: 10 }, (_, i) => counters[i % 2]!.hit('POST /api/contact 10.0.0.1', 400)),
    );
    expect(hits.map((hit) => hit.hits).sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect(new Set(hits.map((hit) => hit.resetAt.getTime())).size).toBe(1);
    expect((await counters[0]!.hit('POST /api/contact 10.0.0.2', 400)).hits).toBe(1);
    now = new Date(now.getTime() + 400);
    expect((await counters[1]!.hit('POST /api/contact 10.0.0.1', 400)).hits).toBe(1);
  });
});

it('are not created without DATABASE_URL: one SQLite node counts in memory', () => {
  const database = { poolSize: 1, statementTimeoutMs: 1000, connectTimeoutMs: 1000 };
  expect(createRateLimitCounters({ databaseUrl: undefined, database })).toBeUndefined();
});
