import type { Kysely } from 'kysely';
import type { StepOutcome } from '../../kernel/lead/deliveries.ts';
import type { SummaryRun, TeamSummaryJournal } from './team-summary.ts';
import type { Database } from '../../kernel/journal/tables.ts';

/** docs/workspace.md, « Le point du matin »: one row per day, the same SQL on both dialects. */
export class SqlTeamSummaries implements TeamSummaryJournal {
  constructor(private readonly db: Kysely<Database>) {}

  async plan(day: string, dueAt: Date): Promise<void> {
    const at = dueAt.toISOString();
    await this.db
      .insertInto('team_summaries')
      .values({
        day,
        due_at: at,
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        lease_until: null,
        last_error: null,
        detail: null,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('day').doNothing())
      .execute();
  }

  async claim(now: Date, leaseUntil: Date): Promise<SummaryRun[]> {
    const at = now.toISOString();
    // One statement with every condition in its WHERE: SQLite runs one writer at a time, and a
    // second PostgreSQL node waiting on the row lock re-reads the lease after it and skips the row.
    const rows = await this.db
      .updateTable('team_summaries')
      .set({ lease_until: leaseUntil.toISOString() })
      .where('status', 'in', ['pending', 'retrying'])
      .where('next_attempt_at', '<=', at)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
      .returning(['day', 'due_at', 'attempts'])
      .execute();
    return rows.map((row) => ({
      day: row.day,
      dueAt: new Date(row.due_at),
      attempts: Number(row.attempts),
    }));
  }

  async settle(day: string, outcome: StepOutcome, now: Date): Promise<void> {
    const at = now.toISOString();
    const base = { lease_until: null, updated_at: at };
    const columns =
      outcome.status === 'done'
        ? { ...base, status: 'done', detail: outcome.detail, last_error: null }
        : outcome.status === 'postponed'
          ? { ...base, next_attempt_at: outcome.nextAttemptAt.toISOString() }
          : outcome.status === 'retrying'
            ? {
                ...base,
                status: 'retrying',
                last_error: outcome.error,
                next_attempt_at: outcome.nextAttemptAt.toISOString(),
              }
            : { ...base, status: outcome.status, last_error: outcome.error };
    await this.db
      .updateTable('team_summaries')
      .set((eb) => ({
        ...columns,
        attempts: outcome.status === 'postponed' ? eb.ref('attempts') : eb('attempts', '+', 1),
      }))
      .where('day', '=', day)
      .execute();
  }
}
