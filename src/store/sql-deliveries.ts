import type { ExpressionBuilder, Kysely, Selectable, Transaction } from 'kysely';
import type {
  Acceptance,
  BacklogLine,
  ClaimRequest,
  ClaimedStep,
  Deliveries,
  DeliveryStep,
  StepOutcome,
  StepStatus,
} from '../domain/deliveries.ts';
import { UNFINISHED_STEP_STATUSES } from '../domain/deliveries.ts';
import type { StepTarget } from '../domain/destination.ts';
import { emailOf, normalizeEmail, type Lead } from '../domain/lead.ts';
import {
  KeyTaken,
  earlierAcceptance,
  idempotencyKeysOf,
  keyRowsOf,
  leadRowOf,
  type AcceptInput,
} from './acceptance-rows.ts';
import { batchedPerTurn } from './batched-per-turn.ts';
import { leadOf } from './lead-rows.ts';
import { isKnown, makeKnown } from './known-addresses.ts';
import { releaseSpam } from './sql-spam-release.ts';
import { insertSteps } from './step-rows.ts';
import type { Settlement } from './sqlite-turn-settles.ts';
import { inSqliteTurn, type SqliteTurns } from './sqlite-turns.ts';
import { leadSummary, settledColumnsOf } from './step-settlement.ts';
import { planSteps, unplannedLeads } from './sql-unplanned-leads.ts';
import type { Database, DeliveryStepsTable } from './tables.ts';

/** The unfinished steps of the outer step's lead at these destinations (a destination's `after`). */
function unfinishedOf(
  eb: ExpressionBuilder<Database, 'delivery_steps'>,
  destinations: readonly string[],
) {
  return eb
    .selectFrom('delivery_steps as earlier')
    .select('earlier.lead_id')
    .whereRef('earlier.lead_id', '=', 'delivery_steps.lead_id')
    .where('earlier.destination', 'in', [...destinations])
    .where('earlier.status', 'in', ['pending', 'retrying']);
}

type StepKey = Pick<DeliveryStep, 'leadId' | 'destination'>;

/** The statuses of a step waiting for its next attempt. */
const DUE_STATUSES: readonly StepStatus[] = ['pending', 'retrying'];

/** The delivery journal in SQL that SQLite and PostgreSQL both run (docs/delivery.md). */
export class SqlDeliveries implements Deliveries {
  constructor(
    private readonly db: Kysely<Database>,
    /** PostgreSQL: dispatchers on several nodes skip each other's locked rows, and lock a lead to settle it. */
    private readonly skipLocked: boolean,
    /** A provider's error may quote the key it was sent, an address or a phone number. */
    private readonly secrets: readonly string[] = [],
    /**
     * SQLite: the leads that arrive in one turn of the event loop are journaled in one synchronous
     * transaction (docs/performance.md, "The accept path"). Its one writer runs them one after the
     * other anyway; on PostgreSQL each lead keeps its own transaction, so that one lead's key
     * conflict never rolls back another's.
     */
    private readonly sqliteTurns?: SqliteTurns,
  ) {}

  async accept(input: AcceptInput): Promise<Acceptance> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return this.sqliteTurns
          ? await this.acceptInTurn(input)
          : await this.db.transaction().execute((trx) => this.acceptIn(trx, input));
      } catch (error) {
        if (!(error instanceof KeyTaken) || attempt >= 2) throw error;
      }
    }
  }

  private readonly acceptInTurn = batchedPerTurn<AcceptInput, Acceptance>((inputs) =>
    inSqliteTurn(this.db, this.sqliteTurns!, (turns) => turns.accepts.journal(inputs)),
  );

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
      .select(['key', 'fingerprint', 'lead_id', 'existing'])
      .where('key', 'in', keys)
      .execute();
    const decided = earlierAcceptance(earlier, input);
    if (decided) {
      const { recordKey } = decided;
      if (recordKey) {
        await this.insertKeys(
          trx,
          [recordKey.key],
          idempotency.fingerprint,
          recordKey.leadId,
          true,
          at,
        );
      }
      return decided.acceptance;
    }
    const email = normalizeEmail(emailOf(lead));
    const existing = spam
      ? await isKnown(trx, lead.kind, email)
      : await makeKnown(trx, lead.kind, email, at);
    await this.insertKeys(trx, keys, idempotency.fingerprint, lead.id, existing, at);
    await trx
      .insertInto('leads')
      .values(leadRowOf(input, email, at))
      .execute();
    await insertSteps(trx, lead, steps, lead.receivedAt);
    return { accepted: 'new', leadId: lead.id, existing };
  }

  /** Another request may have taken a key since our read (PostgreSQL): then start over. */
  private async insertKeys(
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

  async claim({ targets, now, leaseUntil, limit, leadId }: ClaimRequest): Promise<ClaimedStep[]> {
    if (targets.length === 0 || limit <= 0) return [];
    const at = now.toISOString();
    const claimable = this.db
      .selectFrom('delivery_steps')
      .where((eb) =>
        eb.or(
          targets.map((target) =>
            eb.and([
              eb('provider', '=', target.provider),
              eb('destination', '=', target.destination),
              ...(target.after?.length ? [eb.not(eb.exists(unfinishedOf(eb, target.after)))] : []),
            ]),
          ),
        ),
      )
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]));
    const oldestDue = (statuses: readonly StepStatus[]) =>
      claimable
        .where('status', 'in', [...statuses])
        .where('next_attempt_at', '<=', at)
        .orderBy('next_attempt_at')
        .limit(limit);
    let due;
    if (leadId !== undefined) {
      due = claimable
        .select(['lead_id', 'destination'])
        .where('lead_id', '=', leadId)
        .where('status', 'in', [...UNFINISHED_STEP_STATUSES])
        .orderBy('next_attempt_at')
        .limit(limit);
    } else if (this.skipLocked) {
      due = oldestDue(DUE_STATUSES).select(['lead_id', 'destination']);
    } else {
      // SQLite walks the (status, next_attempt_at) index in order for one status, but sorts every
      // due step for `status in (…)` of two: with 20,000 steps waiting, a claim of two took ~270 µs
      // instead of ~70 µs (docs/performance.md, "The delivery path"). The oldest of each status,
      // then the oldest of those.
      const oldestWith = (status: StepStatus) =>
        this.db
          .selectFrom(
            oldestDue([status]).select(['lead_id', 'destination', 'next_attempt_at']).as(status),
          )
          .selectAll();
      due = this.db
        .selectFrom(oldestWith('pending').unionAll(oldestWith('retrying')).as('due'))
        .select(['lead_id', 'destination'])
        .orderBy('next_attempt_at')
        .limit(limit);
    }
    // One statement takes the due steps and leases them: SQLite runs one writer at a time, and on
    // PostgreSQL a second node's subquery skips the rows this one locked and takes the next ones. An
    // idle poll changes no row, so it waits for no sync (sqlite-group-commit.ts).
    const rows = await this.db
      .updateTable('delivery_steps')
      .set({ lease_until: leaseUntil.toISOString() })
      .where((eb) =>
        eb(
          eb.refTuple('lead_id', 'destination'),
          'in',
          (this.skipLocked ? due.forUpdate().skipLocked() : due).$asTuple('lead_id', 'destination'),
        ),
      )
      .returningAll()
      .execute();
    return this.withLeads(rows);
  }

  /** Steps that end in the same turn are settled in one transaction (src/store/batched-per-turn.ts). */
  settle(step: ClaimedStep, outcome: StepOutcome, now: Date): Promise<void> {
    return this.settleInTurn({ step, outcome, now });
  }

  private readonly settleInTurn = batchedPerTurn<Settlement>(async (settlements) => {
    if (this.sqliteTurns) {
      await inSqliteTurn(this.db, this.sqliteTurns, (turns) => turns.settles.settle(settlements));
    } else {
      await this.db.transaction().execute((trx) => this.settleAll(trx, settlements));
    }
    return settlements.map(() => undefined);
  });

  private async settleAll(
    trx: Transaction<Database>,
    settlements: readonly Settlement[],
  ): Promise<void> {
    const leadIds = [...new Set(settlements.map(({ step }) => step.leadId))].sort();
    // PostgreSQL: two nodes settling two steps of one lead would each read the other's step as
    // unfinished (read committed) and leave the lead's summary short of `delivered` for ever; the
    // lead's row lock makes the second wait and read the first's step. Locked in id order, so two
    // batches never wait for each other. SQLite runs one writer.
    if (this.skipLocked) {
      await trx
        .selectFrom('leads')
        .select('id')
        .where('id', 'in', leadIds)
        .orderBy('id')
        .forUpdate()
        .execute();
    }
    for (const { step, outcome, now } of settlements) {
      const { columns, countsAttempt } = settledColumnsOf(outcome, now, this.secrets);
      await trx
        .updateTable('delivery_steps')
        .set((eb) => ({ ...columns, ...(countsAttempt && { attempts: eb('attempts', '+', 1) }) }))
        .where('lead_id', '=', step.leadId)
        .where('destination', '=', step.destination)
        .execute();
    }
    const latest = new Date(Math.max(...settlements.map(({ now }) => now.getTime())));
    for (const leadId of leadIds) await refreshLeadSummary(trx, leadId, latest);
  }

  async steps(leadId: string): Promise<DeliveryStep[]> {
    const rows = await this.db
      .selectFrom('delivery_steps')
      .selectAll()
      .where('lead_id', '=', leadId)
      .orderBy('destination')
      .execute();
    return rows.map(stepOf);
  }

  async backlog(): Promise<BacklogLine[]> {
    const rows = await this.db
      .selectFrom('delivery_steps')
      .select((eb) => [
        'provider',
        'destination',
        'status',
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.min('received_at').as('oldest'),
      ])
      .where('status', 'in', [...UNFINISHED_STEP_STATUSES])
      .groupBy(['provider', 'destination', 'status'])
      .execute();
    const lines = new Map<string, BacklogLine>();
    for (const row of rows) {
      const key = `${row.provider}\u0000${row.destination}`;
      const line = lines.get(key) ?? {
        provider: row.provider,
        destination: row.destination,
        pending: 0,
        retrying: 0,
        dead: 0,
        oldestReceivedAt: null,
      };
      line[row.status as 'pending' | 'retrying' | 'dead'] = Number(row.count);
      const oldest = new Date(String(row.oldest));
      if (!line.oldestReceivedAt || oldest < line.oldestReceivedAt) line.oldestReceivedAt = oldest;
      lines.set(key, line);
    }
    return [...lines.values()].sort((a, b) =>
      `${a.provider} ${a.destination}`.localeCompare(`${b.provider} ${b.destination}`),
    );
  }

  async unfinishedByProvider(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('delivery_steps')
      .select((eb) => ['provider', eb.fn.countAll<number | string>().as('count')])
      .where('status', 'in', [...UNFINISHED_STEP_STATUSES])
      .groupBy('provider')
      .execute();
    return new Map(rows.map((row) => [row.provider, Number(row.count)]));
  }

  async takeDeadForAlert(now: Date): Promise<ClaimedStep[]> {
    const unalerted = (db: Kysely<Database>) =>
      db
        .selectFrom('delivery_steps')
        .select(['lead_id', 'destination'])
        .where('status', '=', 'dead')
        .where('alerted_at', 'is', null);
    const candidates = await unalerted(this.db).execute();
    if (candidates.length === 0) return [];
    const rows = await this.db
      .updateTable('delivery_steps')
      .set({ alerted_at: now.toISOString() })
      .where((eb) => this.keysIn(eb, candidates))
      .where('alerted_at', 'is', null)
      .returningAll()
      .execute();
    return this.withLeads(rows);
  }

  async unmarkAlerted(steps: readonly StepKey[]): Promise<void> {
    if (steps.length === 0) return;
    await this.db
      .updateTable('delivery_steps')
      .set({ alerted_at: null })
      .where((eb) =>
        this.keysIn(
          eb,
          steps.map((step) => ({ lead_id: step.leadId, destination: step.destination })),
        ),
      )
      .execute();
  }

  unplanned(limit: number): Promise<Lead[]> {
    return unplannedLeads(this.db, limit);
  }

  plan(lead: Lead, steps: readonly StepTarget[], now: Date): Promise<void> {
    return planSteps(this.db, lead, steps, now);
  }

  release(lead: Lead, steps: readonly StepTarget[], now: Date): Promise<boolean> {
    return releaseSpam(this.db, lead, steps, now);
  }

  private keysIn(
    eb: ExpressionBuilder<Database, 'delivery_steps'>,
    keys: readonly { lead_id: string; destination: string }[],
  ) {
    return eb.or(
      keys.map((key) =>
        eb.and([eb('lead_id', '=', key.lead_id), eb('destination', '=', key.destination)]),
      ),
    );
  }

  private async withLeads(rows: Selectable<DeliveryStepsTable>[]): Promise<ClaimedStep[]> {
    if (rows.length === 0) return [];
    const leads = await this.db
      .selectFrom('leads')
      .selectAll()
      .where('id', 'in', [...new Set(rows.map((row) => row.lead_id))])
      .execute();
    const byId = new Map<string, Lead>(leads.map((row) => [row.id, leadOf(row)]));
    return rows.flatMap((row) => {
      const lead = byId.get(row.lead_id);
      return lead ? [{ ...stepOf(row), lead }] : [];
    });
  }
}

function stepOf(row: Selectable<DeliveryStepsTable>): DeliveryStep {
  return {
    leadId: row.lead_id,
    destination: row.destination,
    provider: row.provider,
    status: row.status as StepStatus,
    attempts: Number(row.attempts),
    nextAttemptAt: new Date(row.next_attempt_at),
    lastError: row.last_error,
    detail: row.detail,
  };
}

/** Sums the lead's steps up again on its row, after a step was settled or added. */
export async function refreshLeadSummary(
  trx: Transaction<Database>,
  leadId: string,
  at: Date,
): Promise<void> {
  const steps = await trx
    .selectFrom('delivery_steps')
    .selectAll()
    .where('lead_id', '=', leadId)
    .orderBy('destination')
    .execute();
  await trx
    .updateTable('leads')
    .set({ ...leadSummary(steps), updated_at: at.toISOString() })
    .where('id', '=', leadId)
    .execute();
}
