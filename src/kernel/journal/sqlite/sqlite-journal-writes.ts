import type SQLite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Acceptance, ClaimedStep, Settled, StepOutcome } from '../../lead/deliveries.ts';
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
import { CLAIM_SQL, claimParameters } from '../confirmation-claim-sql.ts';
import { leadSummary, settledColumnsOf, type SummedStep } from '../step-settlement.ts';

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

  readonly settle = batchedPerTurn<Settlement, Settled>((settlements) =>
    this.inTurn(() => this.settles.settle(settlements)),
  );

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

/**
 * The confirmation cap's claims made in one turn of the event loop (the confirmation steps the
 * dispatcher runs at once), in one synchronous SQLite transaction of one statement prepared once,
 * instead of an autocommitted statement each (docs/performance.md, "The delivery path"). The
 * statement is CLAIM_SQL (confirmation-claim-sql.ts), the one PostgreSQL runs too; claims for one address in one turn are decided in order,
 * so the first wins as it would alone.
 */
class SqliteTurnConfirmations {
  /** Answers each claim in order: true when it holds the right to confirm. */
  readonly claim: (claims: readonly ConfirmationClaim[]) => boolean[];

  constructor(database: SQLite.Database) {
    const upsert = database.prepare<[Record<string, string | number>]>(CLAIM_SQL);
    this.claim = database.transaction((claims: readonly ConfirmationClaim[]) =>
      claims.map((claim) => upsert.run(claimParameters(claim)).changes === 1),
    );
  }
}

/**
 * The steps that end in one turn of the event loop, settled by one synchronous SQLite transaction
 * of statements prepared once (docs/performance.md, "The delivery path"): the same columns and lead
 * summary as PostgreSQL's Kysely transaction, written over the plan claimed only
 * (step-settlement.ts). The caller holds the connection (Kysely's mutex), so no other transaction
 * is open on it.
 */
class SqliteTurnSettles {
  /** One UPDATE per set of columns an outcome writes (four shapes in all). */
  private readonly updates = new Map<string, SQLite.Statement>();
  private readonly selectSteps: SQLite.Statement<[string], SummedStep>;
  private readonly updateLead: SQLite.Statement<[Record<string, unknown>]>;
  /** Frees the run's own lease of a step planned again since its claim. */
  private readonly freeLease: SQLite.Statement<[Record<string, unknown>]>;
  /** Settles the steps in one transaction (the caller holds the connection). */
  readonly settle: (settlements: readonly Settlement[]) => Settled[];

  constructor(
    private readonly database: SQLite.Database,
    private readonly secrets: readonly string[],
  ) {
    this.selectSteps = database.prepare(
      'select "status", "attempts", "last_error", "detail", "destination" from "delivery_steps" where "lead_id" = ? order by "destination"',
    );
    this.updateLead = database.prepare(
      'update "leads" set "status" = @status, "attempts" = @attempts, "last_error" = @last_error, "provider_answer" = @provider_answer, "updated_at" = @updated_at where "id" = @id',
    );
    this.freeLease = database.prepare(
      'update "delivery_steps" set "lease_until" = null where "lead_id" = @lead_id and "destination" = @destination and "lease_until" = @lease_until',
    );
    this.settle = database.transaction((settlements: readonly Settlement[]) => {
      const settled = settlements.map(({ step, outcome, now }) =>
        this.settleStep(step, outcome, now),
      );
      const latest = new Date(Math.max(...settlements.map(({ now }) => now.getTime())));
      const leadIds = new Set(settlements.map(({ step }) => step.leadId));
      for (const id of leadIds) {
        const summary = leadSummary(this.selectSteps.all(id));
        this.updateLead.run({ ...summary, updated_at: latest.toISOString(), id });
      }
      return settled;
    });
  }

  private settleStep(step: ClaimedStep, outcome: StepOutcome, now: Date): Settled {
    const { columns, countsAttempt } = settledColumnsOf(outcome, now, this.secrets);
    const names = Object.keys(columns);
    const shape = `${names.join(',')}${countsAttempt ? '+attempt' : ''}`;
    let update = this.updates.get(shape);
    if (!update) {
      const sets = names.map((name) => `"${name}" = @${name}`);
      if (countsAttempt) sets.push('"attempts" = "attempts" + 1');
      update = this.database.prepare(
        `update "delivery_steps" set ${sets.join(', ')} where "lead_id" = @lead_id and "destination" = @destination and "revision" = @revision`,
      );
      this.updates.set(shape, update);
    }
    const key = { lead_id: step.leadId, destination: step.destination };
    if (update.run({ ...columns, ...key, revision: step.revision }).changes === 1) return 'settled';
    this.freeLease.run({ ...key, lease_until: step.leaseUntil });
    return 'planned-again';
  }
}
