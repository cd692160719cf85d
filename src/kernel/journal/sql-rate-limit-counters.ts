import type { Kysely } from 'kysely';
import type { RateLimitCounters } from './rate-limit-counters.ts';
import type { Database } from './tables.ts';

/** Table `rate_limit_hits`: one row per key and window, in SQLite and PostgreSQL alike. */
export class SqlRateLimitCounters implements RateLimitCounters {
  private lastSweep = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async hit(key: string, windowMs: number): Promise<{ hits: number; resetAt: Date }> {
    const now = this.now();
    const at = now.toISOString();
    // One atomic upsert, so two nodes counting the same key at once both see their hit.
    const row = await this.db
      .insertInto('rate_limit_hits')
      .values({ key, hits: 1, reset_at: new Date(now.getTime() + windowMs).toISOString() })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => {
          const expired = eb('rate_limit_hits.reset_at', '<=', at);
          return {
            hits: eb
              .case()
              .when(expired)
              .then(eb.lit(1))
              .else(eb('rate_limit_hits.hits', '+', 1))
              .end(),
            reset_at: eb
              .case()
              .when(expired)
              .then(eb.ref('excluded.reset_at'))
              .else(eb.ref('rate_limit_hits.reset_at'))
              .end(),
          };
        }),
      )
      .returning(['hits', 'reset_at'])
      .executeTakeFirstOrThrow();
    await this.sweepExpiredHits(now);
    return { hits: Number(row.hits), resetAt: new Date(row.reset_at) };
  }

  /** Forgets finished windows about once a minute per node, so the table stays as small as the traffic. */
  private async sweepExpiredHits(now: Date): Promise<void> {
    if (now.getTime() - this.lastSweep < 60_000) return;
    this.lastSweep = now.getTime();
    await this.db.deleteFrom('rate_limit_hits').where('reset_at', '<', now.toISOString()).execute();
  }
}
