import type { Migration } from 'kysely';

/**
 * docs/workspace-privacy.md, « Personnes et RGPD »: the register's columns for a request the team
 * enters by hand (how the identity was checked, what was done), and the opt-out list. The list's
 * column is `reference`, never `email`: People.forget() deletes every row of an `email` column, and
 * the list must outlive the erasure it often comes with.
 */
export const privacyDeskMigration: Migration = {
  async up(db) {
    for (const column of ['identity_check', 'outcome']) {
      await db.schema.alterTable('privacy_requests').addColumn(column, 'text').execute();
    }
    await db.schema
      .createTable('opt_outs')
      .addColumn('reference', 'text', (col) => col.primaryKey())
      .addColumn('added_at', 'text', (col) => col.notNull())
      .addColumn('added_by', 'text', (col) => col.notNull())
      .addColumn('reason', 'text')
      .execute();
  },
};
