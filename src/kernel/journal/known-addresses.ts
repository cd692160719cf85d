import type { Transaction } from 'kysely';
import type { Database } from './tables.ts';

/*
 * The addresses known per audience (spec 2.4, `existing`), as normalizeEmail() writes them. Only a
 * lead headed for delivery makes its address known; a `spam` one only reads it
 * (docs/api-decisions.md, "Bot trap").
 */

/** Whether the address was known; the primary key makes "first accepted wins" atomic across nodes (spec 2.4). */
export async function makeKnown(
  trx: Transaction<Database>,
  audience: string,
  email: string,
  at: string,
): Promise<boolean> {
  const known = await trx
    .insertInto('known_addresses')
    .values({ audience, email, first_seen_at: at })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(known.numInsertedOrUpdatedRows ?? 0n) === 0;
}

export async function isKnown(
  trx: Transaction<Database>,
  audience: string,
  email: string,
): Promise<boolean> {
  const row = await trx
    .selectFrom('known_addresses')
    .select('email')
    .where('audience', '=', audience)
    .where('email', '=', email)
    .executeTakeFirst();
  return row !== undefined;
}
