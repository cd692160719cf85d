import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './tables.ts';

/**
 * A random key per database and purpose, created by whichever node asks first (the primary key
 * keeps the first one), so every node signs and hashes alike without a setting to share.
 */
export async function databaseSecret(db: Kysely<Database>, name: string): Promise<string> {
  await db
    .insertInto('secrets')
    .values({ name, value: randomBytes(32).toString('hex') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
