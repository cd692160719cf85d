import type { Migration } from 'kysely';

/**
 * The agency's team (docs/workspace-security.md): accounts, single-use invitations, server-side
 * sessions, recovery codes, sign-in throttling counters and the audit trail. No column is named
 * `email` or `lead_id`: the rights of access and erasure (sql-people.ts) read every such table as a
 * person's, and a staff account or the trail of who looked at a lead is not the lead's person's
 * data.
 */
export const staffMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('staff_accounts')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('address', 'text', (col) => col.notNull().unique())
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('role', 'text', (col) => col.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('totp_secret', 'text')
      .addColumn('totp_required', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('totp_last_step', 'bigint')
      .addColumn('disabled_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('staff_invitations')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('staff_id', 'text', (col) => col.notNull())
      .addColumn('created_by', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createTable('staff_sessions')
      .addColumn('token_hash', 'text', (col) => col.primaryKey())
      .addColumn('staff_id', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('last_seen_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createIndex('staff_sessions_staff')
      .on('staff_sessions')
      .column('staff_id')
      .execute();
    await db.schema
      .createTable('staff_recovery_codes')
      .addColumn('staff_id', 'text', (col) => col.notNull())
      .addColumn('code_hash', 'text', (col) => col.notNull())
      .addColumn('used_at', 'text')
      .addPrimaryKeyConstraint('staff_recovery_codes_pk', ['staff_id', 'code_hash'])
      .execute();
    await db.schema
      .createTable('staff_sign_in_failures')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('failures', 'integer', (col) => col.notNull())
      .addColumn('last_failure_at', 'text', (col) => col.notNull())
      .execute();
    await db.schema
      .createTable('staff_audit')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('at', 'text', (col) => col.notNull())
      .addColumn('staff_id', 'text')
      .addColumn('actor', 'text', (col) => col.notNull())
      .addColumn('action', 'text', (col) => col.notNull())
      .addColumn('target', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('staff_audit_at').on('staff_audit').column('at').execute();
  },
};
