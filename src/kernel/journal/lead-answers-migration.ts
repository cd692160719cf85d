import type { Migration } from 'kysely';

/**
 * docs/workspace.md, « Répondre »: one row per answer given to a lead. The column is `lead_id`, so
 * the rights of access and erasure read the answers as the person's data (sql-people.ts).
 */
export const leadAnswersMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('lead_answers')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('lead_id', 'text', (col) => col.notNull())
      .addColumn('at', 'text', (col) => col.notNull())
      .addColumn('staff_id', 'text', (col) => col.notNull())
      .addColumn('staff_name', 'text', (col) => col.notNull())
      .addColumn('channel', 'text', (col) => col.notNull())
      .addColumn('subject', 'text')
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('in_reply_to', 'text')
      .addColumn('sent_detail', 'text')
      .addColumn('sent_at', 'text')
      .execute();
    await db.schema
      .createIndex('lead_answers_lead')
      .on('lead_answers')
      .columns(['lead_id', 'at'])
      .execute();
    // The dashboard reads the answers given in a week (docs/workspace.md, « Le tableau de bord »).
    await db.schema.createIndex('lead_answers_at').on('lead_answers').column('at').execute();
  },
};
