import type { SelectQueryBuilder } from 'kysely';
import type { Acceptance, ClaimedStep, Settled, StepOutcome } from '../lead/deliveries.ts';
import type { ConfirmationClaim } from '../lead/confirmation-cap.ts';
import type { AcceptInput } from './acceptance-rows.ts';
import type { Database } from './tables.ts';

export type { ConfirmationClaim };

/** A step that ended, with how, to be written to the journal. */
export interface Settlement {
  step: ClaimedStep;
  outcome: StepOutcome;
  now: Date;
}

/** The steps a claim may take, before the choice of which are due (sql-deliveries.ts). */
export type ClaimableSteps = SelectQueryBuilder<Database, 'delivery_steps', object>;

/** The (lead_id, destination) pairs a claim leases, as a subquery. */
export type DueSteps = SelectQueryBuilder<
  Database,
  'delivery_steps',
  { lead_id: string; destination: string }
>;

/**
 * What the two databases do differently in the journal (docs/architecture.md, "The journal"): one
 * adapter each, `sqlite/sqlite-journal-writes.ts` (one writer; the writes of a turn of the event
 * loop in one synchronous transaction of statements prepared once) and
 * `postgres/postgres-journal-writes.ts` (Kysely transactions per lead, row locks, `SKIP LOCKED`
 * between nodes). Everything else of the journal (here and in each feature's sql-*.ts) is SQL both
 * run; only `createStore` picks one.
 * `test/kernel/journal/journal-contract.test.ts` runs the same cases against both.
 */
export interface JournalWrites {
  /** Journals a lead with its keys and steps, or answers the earlier lead its keys name. */
  accept(input: AcceptInput): Promise<Acceptance>;
  /**
   * Writes a step's outcome and its lead's summary, if the step is still under the plan it was
   * claimed with (`revision`); else frees its lease only (step-settlement.ts).
   */
  settle(settlement: Settlement): Promise<Settled>;
  /** True when this lead holds the address's confirmation for the window (docs/consent.md). */
  claimConfirmation(claim: ConfirmationClaim): Promise<boolean>;
  /** At most `limit` due steps of `claimable`, the oldest `next_attempt_at` first. */
  dueSteps(claimable: ClaimableSteps, at: string, limit: number): DueSteps;
  /** The rows of `due` this node may lease now (on PostgreSQL, skipping other nodes' locks). */
  leasable(due: DueSteps): DueSteps;
  /** docs/consent.md, "Erasure": makes the bytes of rows deleted from `tables` leave the files. */
  afterErasure(tables: readonly string[]): Promise<void>;
}
