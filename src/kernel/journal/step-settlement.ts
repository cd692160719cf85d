import type { Transaction } from 'kysely';
import type { StepOutcome, StepStatus } from '../lead/deliveries.ts';
import { leadStatusOf } from '../lead/lead-status.ts';
import { maskText } from '../lead/masking.ts';
import { storableText } from './lead-rows.ts';
import type { Database, DeliveryStepsTable } from './tables.ts';

/*
 * What settling a step writes, shared by the two ways the journal runs it: Kysely's transaction
 * (postgres/postgres-journal-writes.ts) and SQLite's synchronous transaction per turn
 * (sqlite/sqlite-journal-writes.ts).
 *
 * Both write the outcome only where the step's `revision` is still the one claimed. A step planned
 * again while it ran (step-rows.ts, `planAgain`: a later answer journaled during the run of
 * `staff-answer`) has work the run never saw: its outcome is dropped and only the run's own lease
 * is freed (`lease_until` as claimed, so another node's later lease is kept), which leaves the step
 * due as planned again (docs/delivery.md, « The dispatcher »).
 */

type SettledColumns = Partial<
  Pick<DeliveryStepsTable, 'status' | 'next_attempt_at' | 'last_error' | 'detail'>
> &
  Pick<DeliveryStepsTable, 'lease_until' | 'updated_at'>;

/** The step's new columns; `countsAttempt` when the outcome was an attempt (`postponed` is not). */
export function settledColumnsOf(
  outcome: StepOutcome,
  now: Date,
  secrets: readonly string[],
): { columns: SettledColumns; countsAttempt: boolean } {
  const countsAttempt = outcome.status !== 'postponed';
  return {
    countsAttempt,
    columns: {
      ...(countsAttempt && { status: outcome.status }),
      ...('nextAttemptAt' in outcome && { next_attempt_at: outcome.nextAttemptAt.toISOString() }),
      // Masked as in the logs (src/kernel/lead/masking.ts): the journal and its exports never hold
      // them.
      ...('error' in outcome && { last_error: storableText(maskText(outcome.error, secrets)) }),
      ...('detail' in outcome && { detail: storableText(outcome.detail), last_error: null }),
      lease_until: null,
      updated_at: now.toISOString(),
    },
  };
}

/** What the lead's summary reads of each of its steps. */
export type SummedStep = Pick<
  DeliveryStepsTable,
  'status' | 'attempts' | 'last_error' | 'detail' | 'destination'
>;

/** The lead's row sums up its steps: the journal's `leads list` and export read it. */
export function leadSummary(steps: readonly SummedStep[]) {
  const status = leadStatusOf(steps.map((step) => step.status as StepStatus));
  const errors = steps
    .filter((step) => step.status !== 'done' && step.last_error)
    .map((step) => `${step.destination}: ${step.last_error}`);
  const answers = steps
    .filter((step) => step.status === 'done')
    .map((step) => `${step.destination}: ${step.detail ?? ''}`);
  return {
    status,
    attempts: Math.max(0, ...steps.map((step) => Number(step.attempts))),
    last_error: errors.length > 0 ? storableText(errors.join('; ')) : null,
    provider_answer: answers.length > 0 ? storableText(answers.join('; ')) : null,
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
