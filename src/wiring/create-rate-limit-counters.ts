import type { RateLimitCounters } from '../kernel/journal/rate-limit-counters.ts';
import type { StoreSettings } from './create-store.ts';
import { postgresDatabase } from '../kernel/journal/postgres/postgres-database.ts';
import { SqlRateLimitCounters } from '../kernel/journal/sql-rate-limit-counters.ts';

/** Counters every node on the database shares, with the connections they count on. */
export interface SharedRateLimitCounters extends RateLimitCounters {
  close(): Promise<void>;
}

// A hit is one upsert answered in about a millisecond: two connections are plenty, and the
// journal's pool stays free for the leads.
const COUNTER_POOL_SIZE = 2;

/**
 * docs/deployment.md: the per-client rate-limit counters of @fastify/rate-limit, shared by every node
 * on the PostgreSQL database of DATABASE_URL (table `rate_limit_hits`, created by createStore's
 * migrations). They are not the journal, so not in Store: their own factory and small pool. A
 * SQLite deployment is one node, whose limiter counts in memory: undefined.
 */
export function createRateLimitCounters(
  settings: Pick<StoreSettings, 'databaseUrl' | 'database'>,
  now?: () => Date,
): SharedRateLimitCounters | undefined {
  if (!settings.databaseUrl) return undefined;
  const db = postgresDatabase(settings.databaseUrl, {
    ...settings.database,
    poolSize: COUNTER_POOL_SIZE,
  });
  const counters = new SqlRateLimitCounters(db, now);
  return {
    hit: (key, windowMs) => counters.hit(key, windowMs),
    close: () => db.destroy(),
  };
}
