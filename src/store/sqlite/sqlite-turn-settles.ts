import type SQLite from 'better-sqlite3';
import type { ClaimedStep, StepOutcome } from '../../domain/delivery/deliveries.ts';
import type { Settlement } from '../journal-writes.ts';
import { leadSummary, settledColumnsOf, type SummedStep } from '../step-settlement.ts';

/**
 * The steps that end in one turn of the event loop, settled by one synchronous SQLite transaction
 * of statements prepared once (docs/performance.md, "The delivery path"): the same columns and lead
 * summary as PostgreSQL's Kysely transaction (step-settlement.ts). The caller holds the
 * connection (Kysely's mutex), so no other transaction is open on it.
 */
export class SqliteTurnSettles {
  /** One UPDATE per set of columns an outcome writes (four shapes in all). */
  private readonly updates = new Map<string, SQLite.Statement>();
  private readonly selectSteps: SQLite.Statement<[string], SummedStep>;
  private readonly updateLead: SQLite.Statement<[Record<string, unknown>]>;
  /** Settles the steps in one transaction (the caller holds the connection). */
  readonly settle: (settlements: readonly Settlement[]) => void;

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
    this.settle = database.transaction((settlements: readonly Settlement[]) => {
      for (const { step, outcome, now } of settlements) this.settleStep(step, outcome, now);
      const latest = new Date(Math.max(...settlements.map(({ now }) => now.getTime())));
      const leadIds = new Set(settlements.map(({ step }) => step.leadId));
      for (const id of leadIds) {
        const summary = leadSummary(this.selectSteps.all(id));
        this.updateLead.run({ ...summary, updated_at: latest.toISOString(), id });
      }
    });
  }

  private settleStep(step: ClaimedStep, outcome: StepOutcome, now: Date): void {
    const { columns, countsAttempt } = settledColumnsOf(outcome, now, this.secrets);
    const names = Object.keys(columns);
    const shape = `${names.join(',')}${countsAttempt ? '+attempt' : ''}`;
    let update = this.updates.get(shape);
    if (!update) {
      const sets = names.map((name) => `"${name}" = @${name}`);
      if (countsAttempt) sets.push('"attempts" = "attempts" + 1');
      update = this.database.prepare(
        `update "delivery_steps" set ${sets.join(', ')} where "lead_id" = @lead_id and "destination" = @destination`,
      );
      this.updates.set(shape, update);
    }
    update.run({ ...columns, lead_id: step.leadId, destination: step.destination });
  }
}
