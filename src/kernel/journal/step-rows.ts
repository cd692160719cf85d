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
