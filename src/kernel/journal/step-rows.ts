import type { Transaction } from 'kysely';
import type { StepTarget } from '../lead/destination.ts';
import type { Lead } from '../lead/lead.ts';
import { stepRowsOf } from './acceptance-rows.ts';
import type { Database } from './tables.ts';

/**
 * One `pending` step per target, due at once; a step the lead has already is left as it is. At
 * acceptance, and later for steps that wait for the person (the newsletter's double opt-in,
 * docs/consent.md) or for a lead from before delivery steps. Resolves with how many were new.
 */
export async function insertSteps(
  trx: Transaction<Database>,
  lead: Pick<Lead, 'id' | 'receivedAt'>,
  steps: readonly StepTarget[],
  at: Date,
): Promise<number> {
  if (steps.length === 0) return 0;
  const inserted = await trx
    .insertInto('delivery_steps')
    .values(stepRowsOf(lead, steps, at))
    .onConflict((oc) => oc.columns(['lead_id', 'destination']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n);
}

/**
 * Plans a step again, due at `at`, as a new one (attempts 0), or plans it first. Its `revision`
 * grows, so a run in progress, which claimed the step before this plan, has its outcome dropped at
 * its settle and leaves the step due (step-settlement.ts): what was planned now is never lost under
 * a `done` written for what was planned before. The lease is kept: no second run starts meanwhile.
 */
export async function planAgain(
  trx: Transaction<Database>,
  lead: Pick<Lead, 'id' | 'receivedAt'>,
  target: StepTarget,
  at: Date,
): Promise<void> {
  const [step] = stepRowsOf(lead, [target], at);
  await trx
    .insertInto('delivery_steps')
    .values(step!)
    .onConflict((oc) =>
      oc.columns(['lead_id', 'destination']).doUpdateSet((eb) => ({
        status: 'pending',
        attempts: 0,
        provider: target.provider,
        next_attempt_at: at.toISOString(),
        last_error: null,
        alerted_at: null,
        updated_at: at.toISOString(),
        revision: eb(eb.ref('delivery_steps.revision'), '+', 1),
      })),
    )
    .execute();
}
