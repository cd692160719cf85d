import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Acceptance } from '../../domain/delivery/deliveries.ts';
import type { AcceptInput } from '../acceptance-rows.ts';
import { batchedPerTurn } from '../batched-per-turn.ts';
import type {
  ClaimableSteps,
  ConfirmationClaim,
  DueSteps,
  JournalWrites,
  Settlement,
} from '../journal-writes.ts';
import type { Database } from '../tables.ts';
import type { WalSync } from './sqlite-group-commit.ts';
import { SqliteTurnAccepts } from './sqlite-turn-accepts.ts';
import { SqliteTurnConfirmations } from './sqlite-turn-confirmations.ts';
import { SqliteTurnSettles } from './sqlite-turn-settles.ts';

/**
 * The journal's writes on SQLite, which runs one writer: the leads, settled steps and confirmation
 * claims of one turn of the event loop, each kind in one synchronous transaction of statements
 * prepared once (docs/performance.md, "The accept path"), then one wait for the group commit's sync
 * (sqlite-group-commit.ts) shared by all of them.
 */
export class SqliteJournalWrites implements JournalWrites {
  private readonly accepts: SqliteTurnAccepts;
  private readonly settles: SqliteTurnSettles;
  private readonly confirmations: SqliteTurnConfirmations;

  constructor(
    private readonly db: Kysely<Database>,
    database: SQLite.Database,
    private readonly wal: Pick<WalSync, 'flush'>,
    secrets: readonly string[],
  ) {
    this.accepts = new SqliteTurnAccepts(database);
    this.settles = new SqliteTurnSettles(database, secrets);
    this.confirmations = new SqliteTurnConfirmations(database);
  }

  readonly accept = batchedPerTurn<AcceptInput, Acceptance>((inputs) =>
    this.inTurn(() => this.accepts.journal(inputs)),
  );

  readonly settle = batchedPerTurn<Settlement>(async (settlements) => {
    await this.inTurn(() => this.settles.settle(settlements));
    return settlements.map(() => undefined);
  });

  readonly claimConfirmation = batchedPerTurn<ConfirmationClaim, boolean>((claims) =>
    this.inTurn(() => this.confirmations.claim(claims)),
  );

  dueSteps(claimable: ClaimableSteps, at: string, limit: number): DueSteps {
    // SQLite walks the (status, next_attempt_at) index in order for one status, but sorts every due
    // step for `status in (…)` of two: with 20,000 steps waiting, a claim of two took ~270 µs
    // instead of ~70 µs (docs/performance.md, "The delivery path"). The oldest of each status, then
    // the oldest of those.
    const oldestWith = (status: 'pending' | 'retrying') =>
      this.db
        .selectFrom(
          claimable
            .where('status', '=', status)
            .where('next_attempt_at', '<=', at)
            .orderBy('next_attempt_at')
            .limit(limit)
            .select(['lead_id', 'destination', 'next_attempt_at'])
            .as(status),
        )
        .selectAll();
    return this.db
      .selectFrom(oldestWith('pending').unionAll(oldestWith('retrying')).as('due'))
      .select(['lead_id', 'destination'])
      .orderBy('next_attempt_at')
      .limit(limit) as unknown as DueSteps;
  }

  /** One writer: no other node holds a row. */
  leasable(due: DueSteps): DueSteps {
    return due;
  }

  /**
   * The WAL still holds the pages as they were before the erasure (and `secure_delete` zeroes the
   * freed ones in the file): copy the WAL's pages into the file and truncate it to zero bytes.
   */
  async afterErasure(): Promise<void> {
    // The inbox's full-text index (docs/workspace.md) keeps a deleted row's words in its segments
    // until they are merged: merge them now.
    await sql`insert into lead_search (lead_search) values ('optimize')`.execute(this.db);
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(this.db);
  }

  /**
   * Runs one synchronous transaction holding the connection (Kysely's mutex, so that no Kysely
   * transaction is open on it), then waits for the group commit's sync without holding it, so that
   * the next turn's writes go on meanwhile.
   */
  private async inTurn<R>(write: () => R): Promise<R> {
    const result = await this.db.connection().execute(async () => write());
    await this.wal.flush();
    return result;
  }
}
