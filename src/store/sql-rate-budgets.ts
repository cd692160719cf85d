import { sql, type Kysely } from 'kysely';
import type { RateBudgets } from '../domain/rate-budget.ts';
import type { Database } from './tables.ts';

/**
 * Provider budgets in the journal's database, so every node and `leadgate dispatch` share one (a
 * generic cell rate: one row per budget holding its next free slot; reserving moves it on by one
 * interval in a single UPDATE, atomic on both dialects).
 */
export class SqlRateBudgets implements RateBudgets {
  private readonly created = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  async reserve(key: string, intervalMs: number, maxWaitMs: number) {
    await this.create(key);
    const now = this.clock();
    const slot = sql<number>`case when next_slot_at > cast(${now} as bigint) then next_slot_at else cast(${now} as bigint) end`;
    const taken = await this.db
      .updateTable('provider_budgets')
      .set({ next_slot_at: sql`${slot} + cast(${Math.ceil(intervalMs)} as bigint)` })
      .where('key', '=', key)
      .where(slot, '<=', sql<number>`cast(${now + maxWaitMs} as bigint)`)
      .returning('next_slot_at')
      .executeTakeFirst();
    if (taken) {
      return {
        reserved: true,
        waitMs: Math.max(0, Number(taken.next_slot_at) - Math.ceil(intervalMs) - now),
      };
    }
    const row = await this.db
      .selectFrom('provider_budgets')
      .select('next_slot_at')
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    return { reserved: false, waitMs: Math.max(0, Number(row.next_slot_at) - now) };
  }

  async pauseUntil(key: string, untilMs: number): Promise<void> {
    await this.create(key);
    await this.db
      .updateTable('provider_budgets')
      .set({ next_slot_at: Math.ceil(untilMs) })
      .where('key', '=', key)
      .where('next_slot_at', '<', Math.ceil(untilMs))
      .execute();
  }

  private async create(key: string): Promise<void> {
    if (this.created.has(key)) return;
    await this.db
      .insertInto('provider_budgets')
      .values({ key, next_slot_at: 0 })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    this.created.add(key);
  }
}
