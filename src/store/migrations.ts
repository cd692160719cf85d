import { Migrator, type Kysely, type Migration } from 'kysely';

/*
 * Migrations live in code, not in files found at run time, so the same list runs from the checkout,
 * from tests and from a bundled build. Append new entries; never edit one that has shipped.
 */
const migrations: Record<string, Migration> = {
  '2026-11-22-001-journal': {
    async up(db) {
      await db.schema
        .createTable('leads')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('payload', 'text', (col) => col.notNull())
        .addColumn('received_at', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('provider_answer', 'text')
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('leads_status')
        .on('leads')
        .columns(['status', 'received_at'])
        .execute();
      await db.schema
        .createTable('known_addresses')
        .addColumn('audience', 'text', (col) => col.notNull())
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('first_seen_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('known_addresses_pk', ['audience', 'email'])
        .execute();
    },
  },
  // Issue 5: `leads replay` on several nodes leases each lead it takes; rate limits counted across nodes.
  '2026-11-22-002-replay-lease-and-rate-limits': {
    async up(db) {
      await db.schema.alterTable('leads').addColumn('claimed_until', 'text').execute();
      await db.schema
        .createTable('rate_limit_hits')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('hits', 'integer', (col) => col.notNull())
        .addColumn('reset_at', 'text', (col) => col.notNull())
        .execute();
    },
  },
  // Issue 4: Idempotency-Key records, and the e-mails of each lead already handed over.
  '2026-11-22-003-idempotency-and-handoffs': {
    async up(db) {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('key', 'text', (col) => col.primaryKey())
        .addColumn('fingerprint', 'text', (col) => col.notNull())
        .addColumn('lead_id', 'text', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('existing', 'integer')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('lead_handoffs')
        .addColumn('lead_id', 'text', (col) => col.notNull())
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('handed_over_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('lead_handoffs_pk', ['lead_id', 'role'])
        .execute();
    },
  },
};

export async function migrateToLatest(db: Kysely<unknown>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
