import { sql, type Kysely, type Transaction } from 'kysely';
import type { Acceptance, Settled } from '../../lead/deliveries.ts';
import { emailOf, normalizeEmail } from '../../lead/lead.ts';
import {
  KeyTaken,
  earlierAcceptance,
  idempotencyKeysOf,
  keyRowsOf,
  leadRowOf,
  type AcceptInput,
} from '../acceptance-rows.ts';
import { batchedPerTurn } from '../batched-per-turn.ts';
import { CLAIM_SQL, claimParameters } from '../confirmation-claim-sql.ts';
import type {
  ClaimableSteps,
  ConfirmationClaim,
  DueSteps,
  JournalWrites,
  Settlement,
} from '../journal-writes.ts';
import { isKnown, makeKnown } from '../known-addresses.ts';
import { refreshLeadSummary, settledColumnsOf } from '../step-settlement.ts';
import { insertSteps } from '../step-rows.ts';
import type { Database } from '../tables.ts';

/** The claim's text cut at its `$name` parameters: odd pieces are names, even ones SQL. */
const CLAIM_PIECES = CLAIM_SQL.split(/\$(\w+)/);

/**
 * The journal's writes on PostgreSQL, where several nodes write at once: each lead in its own
 * transaction, so that one lead's key taken by another node never rolls back another's; settles
 * lock their leads' rows; claims skip the rows another node has locked (docs/deployment.md).
 */
export class PostgresJournalWrites implements JournalWrites {
  constructor(
    private readonly db: Kysely<Database>,
    /** A provider's error may quote the key it was sent, an address or a phone number. */
    private readonly secrets: readonly string[],
  ) {}

  async accept(input: AcceptInput): Promise<Acceptance> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.db.transaction().execute((trx) => this.acceptIn(trx, input));
      } catch (error) {
        // Another node took one of the keys between our read and our insert: read again.
        if (!(error instanceof KeyTaken) || attempt >= 2) throw error;
      }
    }
  }

  private async acceptIn(trx: Transaction<Database>, input: AcceptInput): Promise<Acceptance> {
    const { lead, steps, spam = false, idempotency } = input;
    const at = lead.receivedAt.toISOString();
    const keys = idempotencyKeysOf(input);
    await trx
      .deleteFrom('idempotency_keys')
      .where('key', 'in', keys)
      .where('created_at', '<', idempotency.expiredBefore.toISOString())
      .execute();
    const earlier = await trx
      .selectFrom('idempotency_keys')
      .select(['key', 'fingerprint', 'lead_id', 'existing', 'created_at'])
      .where('key', 'in', keys)
      .execute();
    const decided = earlierAcceptance(earlier, input);
    if (decided) {
      const { recordKey } = decided;
      if (recordKey) {
        await insertKeys(trx, [recordKey.key], idempotency.fingerprint, recordKey.leadId, true, at);
      }
      return decided.acceptance;
    }
    const email = normalizeEmail(emailOf(lead));
    const existing = spam
      ? await isKnown(trx, lead.kind, email)
      : await makeKnown(trx, lead.kind, email, at);
    await insertKeys(trx, keys, idempotency.fingerprint, lead.id, existing, at);
    await trx
      .insertInto('leads')
      .values(leadRowOf(input, email, at))
      .execute();
    await insertSteps(trx, lead, steps, lead.receivedAt);
    return { accepted: 'new', leadId: lead.id, existing };
  }

  /** Steps that end in the same turn are settled in one transaction (batched-per-turn.ts). */
  readonly settle = batchedPerTurn<Settlement, Settled>((settlements) =>
    this.db.transaction().execute((trx) => this.settleAll(trx, settlements)),
  );

  /** Written over the plan claimed only (step-settlement.ts). */
  private async settleAll(
    trx: Transaction<Database>,
    settlements: readonly Settlement[],
  ): Promise<Settled[]> {
    const leadIds = [...new Set(settlements.map(({ step }) => step.leadId))].sort();
    // Two nodes settling two steps of one lead would each read the other's step as unfinished (read
    // committed) and leave the lead's summary short of `delivered` for ever; the lead's row lock
    // makes the second wait and read the first's step. Locked in id order, so two batches never
    // wait for each other.
    await trx
      .selectFrom('leads')
      .select('id')
      .where('id', 'in', leadIds)
      .orderBy('id')
      .forUpdate()
      .execute();
    const settled: Settled[] = [];
    for (const { step, outcome, now } of settlements) {
      const { columns, countsAttempt } = settledColumnsOf(outcome, now, this.secrets);
      const { numUpdatedRows } = await trx
        .updateTable('delivery_steps')
        .set((eb) => ({ ...columns, ...(countsAttempt && { attempts: eb('attempts', '+', 1) }) }))
        .where('lead_id', '=', step.leadId)
        .where('destination', '=', step.destination)
        .where('revision', '=', step.revision)
        .executeTakeFirst();
      if (numUpdatedRows === 1n) {
        settled.push('settled');
        continue;
      }
      await trx
        .updateTable('delivery_steps')
        .set({ lease_until: null })
        .where('lead_id', '=', step.leadId)
        .where('destination', '=', step.destination)
        .where('lease_until', '=', step.leaseUntil)
        .execute();
      settled.push('planned-again');
    }
    const latest = new Date(Math.max(...settlements.map(({ now }) => now.getTime())));
    for (const leadId of leadIds) await refreshLeadSummary(trx, leadId, latest);
    return settled;
  }

  /** The claim's one statement, shared with SQLite (confirmation-claim-sql.ts), bound for pg. */
  async claimConfirmation(claim: ConfirmationClaim): Promise<boolean> {
    const values = claimParameters(claim);
    const statement = sql.join(
      CLAIM_PIECES.map((piece, index) => (index % 2 ? sql`${values[piece]}` : sql.raw(piece))),
      sql.raw(''),
    );
    const result = await statement.execute(this.db);
    return Number(result.numAffectedRows ?? 0n) === 1;
  }

  /** PostgreSQL's top-N sort of the two due statuses is cheap; one subquery keeps one lock scope. */
  dueSteps(claimable: ClaimableSteps, at: string, limit: number): DueSteps {
    return claimable
      .where('status', 'in', ['pending', 'retrying'])
      .where('next_attempt_at', '<=', at)
      .orderBy('next_attempt_at')
      .limit(limit)
      .select(['lead_id', 'destination']);
  }

  /** A second node's claim skips the rows this one locked and takes the next ones. */
  leasable(due: DueSteps): DueSteps {
    return due.forUpdate().skipLocked();
  }

  /**
   * A deleted row stays in its page as a dead tuple until VACUUM marks the space free (and a later
   * row overwrites it): run it on the tables the erasure wrote to.
   */
  async afterErasure(tables: readonly string[]): Promise<void> {
    await sql`vacuum ${sql.join(tables.map((table) => sql.id(table)))}`.execute(this.db);
  }
}

/** Another request may have taken a key since our read: then the caller starts over. */
async function insertKeys(
  trx: Transaction<Database>,
  keys: readonly string[],
  fingerprint: string,
  leadId: string,
  existing: boolean,
  at: string,
): Promise<void> {
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values(keyRowsOf(keys, fingerprint, leadId, existing, at))
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== keys.length) throw new KeyTaken();
}
