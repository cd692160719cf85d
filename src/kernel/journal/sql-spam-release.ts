import type { Kysely } from 'kysely';
import type { StepTarget } from '../lead/destination.ts';
import { emailOf, normalizeEmail, type Lead } from '../lead/lead.ts';
import { makeKnown } from './known-addresses.ts';
import { insertSteps } from './step-rows.ts';
import type { Database } from './tables.ts';

/**
 * `leads release` (docs/operations.md): a `spam` lead becomes what the intake would have journaled
 * for a real request, in one transaction: its steps, due now, its status from them, and its address
 * known from now on (spec 2.4). The status guard makes a second release, on any node, a no-op.
 */
export async function releaseSpam(
  db: Kysely<Database>,
  lead: Lead,
  steps: readonly StepTarget[],
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const released = await trx
      .updateTable('leads')
      .set({ status: steps.length > 0 ? 'pending' : 'delivered', updated_at: at })
      .where('id', '=', lead.id)
      .where('status', '=', 'spam')
      .executeTakeFirst();
    if (Number(released.numUpdatedRows) === 0) return false;
    await makeKnown(trx, lead.kind, normalizeEmail(emailOf(lead)), at);
    await insertSteps(trx, lead, steps, now);
    return true;
  });
}
