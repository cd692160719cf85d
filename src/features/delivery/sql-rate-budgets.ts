import type { Kysely } from 'kysely';
import { keptAfter, nextSlot, type CallLimit, type RateBudgets } from './rate-budget.ts';
import type { Database, ProviderBudgetsTable } from '../../kernel/journal/tables.ts';

type BudgetRow = Pick<ProviderBudgetsTable, 'next_slot_at' | 'recent_calls'>;

/** Two nodes reserving at the same instant: the loser reads again; past this many, a node is stuck. */
const MAX_RACES = 50;

/**
 * Provider budgets in the journal's database, so every node and `leadgate dispatch` share one. One
 * row per budget: the latest reservations (`recent_calls`, ms since the epoch, oldest first) and
 * `next_slot_at`, no call before (a 429's reset). A reservation reads the row, computes its slot
 * (`nextSlot`) and writes it only if the row is still what it read (compare and set, atomic on both
 * dialects without locks); a node that lost the race reads again. Each node starts from what it
 * wrote last, so a budget one node uses alone costs one statement per call.
 */
export class SqlRateBudgets implements RateBudgets {
  private readonly created = new Set<string>();
  /** What this node last wrote to each budget (possibly overtaken by another node since). */
  private readonly lastWritten = new Map<string, BudgetRow>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: () => number = Date.now,
  ) {}

  async reserve(key: string, limit: CallLimit, maxWaitMs: number) {
    await this.create(key);
    // This node's last write is the first guess: alone on the budget, one statement per call.
    let row = this.lastWritten.get(key) ?? (await this.read(key));
    for (let race = 0; race < MAX_RACES; race += 1) {
      const recent = row.recent_calls ? row.recent_calls.split(',').map(Number) : [];
      const now = this.clock();
      const slot = nextSlot(recent, now, limit, Number(row.next_slot_at));
      // Another node's writes only add later calls or a later pause: a slot too far by an old
      // row is too far by the current one.
      if (slot - now > maxWaitMs) return { reserved: false, waitMs: slot - now };
      const written = {
        next_slot_at: row.next_slot_at,
        recent_calls: keptAfter(recent, slot, limit).join(','),
      };
      const taken = await this.db
        .updateTable('provider_budgets')
        .set({ recent_calls: written.recent_calls })
        .where('key', '=', key)
        .where('recent_calls', '=', row.recent_calls)
        .where('next_slot_at', '=', row.next_slot_at)
        .executeTakeFirst();
      if (taken.numUpdatedRows > 0n) {
        this.lastWritten.set(key, written);
        return { reserved: true, waitMs: slot - now };
      }
      this.lastWritten.delete(key);
      row = await this.read(key);
    }
    throw new Error(`rate budget ${key}: lost ${MAX_RACES} races in a row for a slot`);
  }

  private read(key: string): Promise<BudgetRow> {
    return this.db
      .selectFrom('provider_budgets')
      .select(['next_slot_at', 'recent_calls'])
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
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

  async pausedFor(key: string): Promise<number> {
    await this.create(key);
    const { next_slot_at } = await this.read(key);
    return Math.max(0, Number(next_slot_at) - this.clock());
  }

  private async create(key: string): Promise<void> {
    if (this.created.has(key)) return;
    await this.db
      .insertInto('provider_budgets')
      .values({ key, next_slot_at: 0, recent_calls: '' })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    this.created.add(key);
  }
}
