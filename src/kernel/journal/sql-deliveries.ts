import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type {
  Acceptance,
  BacklogLine,
  ClaimRequest,
  ClaimedStep,
  Deliveries,
  DeliveryStep,
  Settled,
  StepOutcome,
  StepStatus,
} from '../lead/deliveries.ts';
import { UNFINISHED_STEP_STATUSES } from '../lead/deliveries.ts';
import type { StepTarget } from '../lead/destination.ts';
import type { Lead } from '../lead/lead.ts';
import type { AcceptInput } from './acceptance-rows.ts';
import type { JournalWrites } from './journal-writes.ts';
import { leadOf } from './lead-rows.ts';
import { releaseSpam } from './sql-spam-release.ts';
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

/**
 * The delivery journal in SQL that SQLite and PostgreSQL both run (docs/delivery.md); what the two
 * do differently is the adapter's (journal-writes.ts).
 */
export class SqlDeliveries implements Deliveries {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly writes: JournalWrites,
  ) {}

  accept(input: AcceptInput): Promise<Acceptance> {
    return this.writes.accept(input);
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
    const due =
      leadId === undefined
        ? this.writes.dueSteps(claimable, at, limit)
        : claimable
            .select(['lead_id', 'destination'])
            .where('lead_id', '=', leadId)
            .where('status', 'in', [...UNFINISHED_STEP_STATUSES])
            .orderBy('next_attempt_at')
            .limit(limit);
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
          this.writes.leasable(due).$asTuple('lead_id', 'destination'),
        ),
      )
      .returningAll()
      .execute();
    return this.withLeads(rows);
  }

  settle(step: ClaimedStep, outcome: StepOutcome, now: Date): Promise<Settled> {
    return this.writes.settle({ step, outcome, now });
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
      .where('status', 'in', [...UNFINISHED_STEP_STATUSES, 'refused'])
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
        refused: 0,
        oldestReceivedAt: null,
      };
      line[row.status as 'pending' | 'retrying' | 'dead' | 'refused'] = Number(row.count);
      lines.set(key, line);
      if (row.status === 'refused') continue;
      const oldest = new Date(String(row.oldest));
      if (!line.oldestReceivedAt || oldest < line.oldestReceivedAt) line.oldestReceivedAt = oldest;
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
      return lead
        ? [{ ...stepOf(row), lead, revision: Number(row.revision), leaseUntil: row.lease_until }]
        : [];
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
