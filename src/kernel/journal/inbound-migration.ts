import type { Migration } from 'kysely';

/**
 * docs/inbound.md: the prospects' messages received by the inbound routes, and what bounces and
 * complaints say of an address. Both are the person's data: `inbound_messages` has `lead_id` and
 * `email` (the sender), `address_flags` has `email`, so the rights of access and erasure and the
 * retention (sql-people.ts) find them like every other table of a person.
 */
export const inboundMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('inbound_messages')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('lead_id', 'text')
      .addColumn('email', 'text', (col) => col.notNull())
      .addColumn('received_at', 'text', (col) => col.notNull())
      .addColumn('source', 'text', (col) => col.notNull())
      .addColumn('message_id', 'text')
      .addColumn('subject', 'text', (col) => col.notNull())
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('quoted', 'text', (col) => col.notNull())
      .addColumn('attachments', 'text', (col) => col.notNull())
      .addColumn('matched_by', 'text')
      .addColumn('review_reason', 'text')
      .addColumn('read_at', 'text')
      .addColumn('read_by', 'text')
      .execute();
    await db.schema
      .createIndex('inbound_messages_lead')
      .on('inbound_messages')
      .columns(['lead_id', 'received_at'])
      .execute();
    await db.schema
      .createIndex('inbound_messages_email')
      .on('inbound_messages')
      .column('email')
      .execute();
    await db.schema
      .createTable('address_flags')
      .addColumn('email', 'text', (col) => col.primaryKey())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('soft_bounces', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('reason', 'text')
      .addColumn('flagged_at', 'text', (col) => col.notNull())
      .execute();
  },
};
