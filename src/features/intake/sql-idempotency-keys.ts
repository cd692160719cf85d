import type { Kysely } from 'kysely';
import type { IdempotencyKeys } from './idempotency-keys.ts';
import type { Database } from '../../kernel/journal/tables.ts';

export class SqlIdempotencyKeys implements IdempotencyKeys {
  constructor(private readonly db: Kysely<Database>) {}

  async sweep(expiredBefore: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('idempotency_keys')
      .where('created_at', '<', expiredBefore.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
