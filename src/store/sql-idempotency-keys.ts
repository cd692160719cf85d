import type { Kysely, Selectable } from 'kysely';
import type { IdempotencyKeys, IdempotencyRecord, IdempotencyState } from './idempotency-keys.ts';
import type { Database, IdempotencyKeysTable } from './tables.ts';

/** Insert first, read after: the primary key, not a prior SELECT, decides who owns a key (both dialects). */
export class SqlIdempotencyKeys implements IdempotencyKeys {
  constructor(private readonly db: Kysely<Database>) {}

  async claim(
    record: { key: string; fingerprint: string; leadId: string },
    now: Date,
    expiredBefore: Date,
  ): Promise<'claimed' | IdempotencyRecord> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('key', '=', record.key)
      .where('created_at', '<', expiredBefore.toISOString())
      .execute();
    const at = now.toISOString();
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values({
        key: record.key,
        fingerprint: record.fingerprint,
        lead_id: record.leadId,
        state: 'in_progress',
        existing: null,
        created_at: at,
        updated_at: at,
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return 'claimed';
    const row = await this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('key', '=', record.key)
      .executeTakeFirst();
    // Deleted between the insert and the read (expired and retaken): ask again.
    return row ? toRecord(row) : this.claim(record, now, expiredBefore);
  }

  async takeOver(record: IdempotencyRecord, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ state: 'in_progress', updated_at: now.toISOString() })
      .where('key', '=', record.key)
      .where('state', '=', record.state)
      .where('updated_at', '=', record.updatedAt)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async settle(
    key: string,
    outcome: { state: 'done'; existing: boolean } | { state: 'retryable' },
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('idempotency_keys')
      .set({
        state: outcome.state,
        existing: outcome.state === 'done' ? Number(outcome.existing) : null,
        updated_at: now.toISOString(),
      })
      .where('key', '=', key)
      .execute();
  }
}

function toRecord(row: Selectable<IdempotencyKeysTable>): IdempotencyRecord {
  return {
    key: row.key,
    fingerprint: row.fingerprint,
    leadId: row.lead_id,
    state: row.state as IdempotencyState,
    existing: row.existing === null ? null : Number(row.existing) === 1,
    createdAt: new Date(row.created_at),
    updatedAt: row.updated_at,
  };
}
