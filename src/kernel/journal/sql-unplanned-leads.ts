import type { Kysely } from 'kysely';
import type { StepTarget } from '../lead/destination.ts';
import type { Lead } from '../lead/lead.ts';
import { leadOf } from './lead-rows.ts';
import { insertSteps } from './step-rows.ts';
import type { Database } from './tables.ts';

/*
 * Leads journaled before delivery steps existed (docs/delivery.md, « Leads from before delivery
 * steps »): migration 2026-11-23-007 created `delivery_steps` empty, so a lead still `pending` or
 * `failed` then has no step, and since the intake writes a lead and its steps in one transaction
 * (a lead without any is `delivered` at once), no other lead is in that state.
 */

export async function unplannedLeads(db: Kysely<Database>, limit: number): Promise<Lead[]> {
  const rows = await db
    .selectFrom('leads')
    .selectAll()
    .where('status', 'in', ['pending', 'failed'])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(selectFrom('delivery_steps').select('lead_id').whereRef('lead_id', '=', 'leads.id')),
      ),
    )
    .orderBy('received_at')
    .limit(limit)
    .execute();
  return rows.map(leadOf);
}

/**
 * Gives an unplanned lead its steps, due now. Two processes planning the same lead insert the same
 * rows: the second inserts none and leaves the lead alone, whatever the first has delivered since.
 */
export async function planSteps(
  db: Kysely<Database>,
  lead: Lead,
  steps: readonly StepTarget[],
  now: Date,
): Promise<void> {
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    if (steps.length > 0 && (await insertSteps(trx, lead, steps, now)) === 0) return;
    await trx
      .updateTable('leads')
      .set({ status: steps.length > 0 ? 'pending' : 'delivered', updated_at: at })
      .where('id', '=', lead.id)
      .where('status', 'in', ['pending', 'failed'])
      .execute();
  });
}
