import type { Kysely, Selectable } from 'kysely';
import { LEAD_STATUSES, type LeadStatus } from '../domain/lead-status.ts';
import type { JournalEntry, Store } from '../domain/store.ts';
import type { LeadKind } from '../schemas/lead-kinds.ts';
import { leadOf } from './lead-rows.ts';
import { SqlConfirmationSends } from './sql-confirmation-sends.ts';
import { SqlDeliveries } from './sql-deliveries.ts';
import { SqlNewsletter } from './sql-newsletter.ts';
import { SqlPeople } from './sql-people.ts';
import { SqlIdempotencyKeys } from './sql-idempotency-keys.ts';
import { SqlRateBudgets } from './sql-rate-budgets.ts';
import { databaseSecret } from './sql-secrets.ts';
import type { SqliteTurns } from './sqlite-turns.ts';
import type { Database, LeadsTable } from './tables.ts';

export interface SqlStoreOptions {
  /** PostgreSQL: dispatchers on several nodes skip each other's locked rows (SQLite has one writer anyway). */
  skipLocked?: boolean;
  /** Configured keys and passwords a provider's error may quote: masked before the journal keeps it. */
  secrets?: readonly string[];
  /** SQLite: the writes of one turn of the event loop in one transaction each (sqlite-turns.ts). */
  sqliteTurns?: SqliteTurns;
  /** After an erasure, so its bytes leave the files too (sql-people.ts, create-store.ts). */
  afterErasure?: (tables: readonly string[]) => Promise<void>;
}

/** The journal in SQL that SQLite and PostgreSQL both run: one implementation, two dialects. */
export class SqlStore implements Store {
  readonly deliveries: SqlDeliveries;
  readonly budgets: SqlRateBudgets;
  readonly idempotency: SqlIdempotencyKeys;
  readonly confirmations: SqlConfirmationSends;
  readonly people: SqlPeople;
  readonly newsletter: SqlNewsletter;

  constructor(
    private readonly db: Kysely<Database>,
    options: SqlStoreOptions = {},
  ) {
    this.deliveries = new SqlDeliveries(
      db,
      options.skipLocked ?? false,
      options.secrets ?? [],
      options.sqliteTurns,
    );
    this.budgets = new SqlRateBudgets(db);
    this.idempotency = new SqlIdempotencyKeys(db);
    this.confirmations = new SqlConfirmationSends(db, options.sqliteTurns);
    this.people = new SqlPeople(db, toEntry, options.afterErasure);
    this.newsletter = new SqlNewsletter(db);
  }

  async find(id: string): Promise<JournalEntry | undefined> {
    const row = await this.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toEntry(row) : undefined;
  }

  async list(
    filter: { statuses?: readonly LeadStatus[]; kinds?: readonly LeadKind[] } = {},
  ): Promise<JournalEntry[]> {
    let query = this.db.selectFrom('leads').selectAll().orderBy('received_at').orderBy('id');
    if (filter.statuses?.length) query = query.where('status', 'in', [...filter.statuses]);
    if (filter.kinds?.length) query = query.where('kind', 'in', [...filter.kinds]);
    const rows = await query.execute();
    return rows.map(toEntry);
  }

  async countByStatus(): Promise<Record<LeadStatus, number>> {
    const rows = await this.db
      .selectFrom('leads')
      .select((eb) => ['status', eb.fn.countAll<number | string>().as('count')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(LEAD_STATUSES.map((status) => [status, 0]));
    for (const row of rows) counts[row.status] = Number(row.count);
    return counts as Record<LeadStatus, number>;
  }

  async purgeReceivedBefore(before: Date): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const old = trx
        .selectFrom('leads')
        .select('id')
        .where('received_at', '<', before.toISOString());
      await trx.deleteFrom('delivery_steps').where('lead_id', 'in', old).execute();
      await trx.deleteFrom('idempotency_keys').where('lead_id', 'in', old).execute();
      await trx.deleteFrom('newsletter_confirmations').where('lead_id', 'in', old).execute();
      const deleted = await trx
        .deleteFrom('leads')
        .where('received_at', '<', before.toISOString())
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }

  secret(purpose: string): Promise<string> {
    return databaseSecret(this.db, purpose);
  }

  async ping(): Promise<void> {
    await this.db.selectFrom('leads').select('id').limit(1).execute();
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

function toEntry(row: Selectable<LeadsTable>): JournalEntry {
  return {
    lead: leadOf(row),
    status: row.status as LeadStatus,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    providerAnswer: row.provider_answer,
    updatedAt: new Date(row.updated_at),
  };
}
