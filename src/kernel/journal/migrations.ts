import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import { leadAnswersMigration } from './lead-answers-migration.ts';
import { inboundMigration } from './inbound-migration.ts';
import { answeredAtMigration } from './answered-at-migration.ts';
import { privacyDeskMigration } from './privacy-desk-migration.ts';
import { staffMigration } from './staff-migration.ts';

/**
 * The schema objects that differ by database (docs/workspace.md, "La boîte de réception" and
 * "Performances"): each adapter gives its own (sqlite/sqlite-lead-search.ts,
 * postgres/postgres-lead-search.ts), chosen in create-store.ts with the rest of the adapter, so no
 * migration asks which database it runs on.
 */
export interface DialectSchema {
  /** Full-text search over what a person wrote, kept up to date by the database itself. */
  createLeadSearch(db: Kysely<unknown>): Promise<void>;
  /** What the inbox reads of the payload, made cheap to filter by (nothing to do where it is). */
  storePayloadFields(db: Kysely<unknown>): Promise<void>;
  /**
   * The index « À traiter » and its count read (docs/performance.md, « The workspace »): the leads
   * without an answer, each dialect's planner served its own way.
   */
  indexAwaitingAnswer(db: Kysely<unknown>): Promise<void>;
}

/*
 * Migrations live in code, not in files found at run time, so the same list runs from the checkout,
 * from tests and from a bundled build. Append new entries; never edit one that has shipped.
 */
export function migrations(schema: DialectSchema): Readonly<Record<string, Migration>> {
  return {
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
    // docs/deployment.md: `leads replay` on several nodes leases each lead it takes; rate limits counted across nodes.
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
    // docs/reliability.md: Idempotency-Key records, and the e-mails of each lead already handed over.
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
    // The proof of consent of each lead (docs/consent.md): the wording by its SHA-256, stored once.
    '2026-11-23-004-consent': {
      async up(db) {
        await db.schema
          .createTable('consent_wordings')
          .addColumn('hash', 'text', (col) => col.primaryKey())
          .addColumn('version', 'text', (col) => col.notNull())
          .addColumn('text', 'text', (col) => col.notNull())
          .addColumn('stored_at', 'text', (col) => col.notNull())
          .execute();
        for (const column of [
          'consent_wording',
          'consent_given_at',
          'consent_channel',
          'consent_page',
          'consent_network',
        ]) {
          await db.schema.alterTable('leads').addColumn(column, 'text').execute();
        }
      },
    },
    // Erasure (docs/consent.md): the key that salts address hashes, and the addresses erased (hashed).
    '2026-11-23-005-people': {
      async up(db) {
        await db.schema
          .createTable('secrets')
          .addColumn('name', 'text', (col) => col.primaryKey())
          .addColumn('value', 'text', (col) => col.notNull())
          .execute();
        await db.schema
          .createTable('forgotten_people')
          .addColumn('reference', 'text', (col) => col.primaryKey())
          .addColumn('forgotten_at', 'text', (col) => col.notNull())
          .execute();
      },
    },
    // docs/reliability.md: one confirmation per address, endpoint and 24 hours, shared by every node.
    '2026-11-23-006-confirmation-sends': {
      async up(db) {
        await db.schema
          .createTable('confirmation_sends')
          .addColumn('kind', 'text', (col) => col.notNull())
          .addColumn('email', 'text', (col) => col.notNull())
          .addColumn('lead_id', 'text', (col) => col.notNull())
          .addColumn('sent_at', 'text', (col) => col.notNull())
          .addPrimaryKeyConstraint('confirmation_sends_pk', ['kind', 'email'])
          .execute();
      },
    },
    // Delivery as journaled steps, one per destination of each lead (docs/delivery.md), and the
    // provider rate budgets every node draws on.
    '2026-11-23-007-delivery-steps': {
      async up(db) {
        await db.schema
          .createTable('delivery_steps')
          .addColumn('lead_id', 'text', (col) => col.notNull())
          .addColumn('destination', 'text', (col) => col.notNull())
          .addColumn('provider', 'text', (col) => col.notNull())
          .addColumn('status', 'text', (col) => col.notNull())
          .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
          .addColumn('next_attempt_at', 'text', (col) => col.notNull())
          .addColumn('lease_until', 'text')
          .addColumn('last_error', 'text')
          .addColumn('detail', 'text')
          .addColumn('received_at', 'text', (col) => col.notNull())
          .addColumn('updated_at', 'text', (col) => col.notNull())
          .addColumn('alerted_at', 'text')
          .addPrimaryKeyConstraint('delivery_steps_pk', ['lead_id', 'destination'])
          .execute();
        await db.schema
          .createIndex('delivery_steps_due')
          .on('delivery_steps')
          .columns(['status', 'next_attempt_at'])
          .execute();
        await db.schema
          .createTable('provider_budgets')
          .addColumn('key', 'text', (col) => col.primaryKey())
          .addColumn('next_slot_at', 'bigint', (col) => col.notNull())
          .execute();
        // Replaced by delivery_steps, which records every destination, not only e-mails.
        await db.schema.dropTable('lead_handoffs').execute();
      },
    },
    // The newsletter's double opt-in (docs/consent.md): each subscription's link, followed or
    // withdrawn; the primary key makes a link single-use, even across nodes.
    '2026-11-24-009-newsletter-confirmations': {
      async up(db) {
        await db.schema
          .createTable('newsletter_confirmations')
          .addColumn('lead_id', 'text', (col) => col.primaryKey())
          .addColumn('email', 'text', (col) => col.notNull())
          .addColumn('confirmed_at', 'text')
          .addColumn('confirmed_network', 'text')
          .addColumn('withdrawn_at', 'text')
          .execute();
        await db.schema
          .createIndex('newsletter_confirmations_email')
          .on('newsletter_confirmations')
          .column('email')
          .execute();
      },
    },
    /**
     * docs/reliability.md: the per-domain hourly cap on confirmations counts the claims of a domain;
     * docs/api-decisions.md ("Bot trap"): why a lead is `spam`, for the agency's review.
     */
    '2026-11-26-100-confirmation-domains-and-spam-reasons': {
      async up(db) {
        await db.schema.alterTable('confirmation_sends').addColumn('domain', 'text').execute();
        await db.schema
          .createIndex('confirmation_sends_domain')
          .on('confirmation_sends')
          .columns(['domain', 'sent_at'])
          .execute();
        await db.schema.alterTable('leads').addColumn('spam_reason', 'text').execute();
      },
    },
    // docs/delivery.md, « Alerts »: one row per open cause, and a lead whose step was refused for
    // good is `refused`, no longer `delivered` (« Lead status »).
    '2026-11-26-200-delivery-alerts': {
      async up(db) {
        await db.schema
          .createTable('delivery_alerts')
          .addColumn('key', 'text', (col) => col.primaryKey())
          .addColumn('destination', 'text', (col) => col.notNull())
          .addColumn('provider', 'text', (col) => col.notNull())
          .addColumn('fix', 'text', (col) => col.notNull())
          .addColumn('said', 'text', (col) => col.notNull())
          .addColumn('since', 'text', (col) => col.notNull())
          .addColumn('last_at', 'text', (col) => col.notNull())
          .addColumn('count', 'integer', (col) => col.notNull())
          .addColumn('announced_at', 'text')
          .addColumn('healed_at', 'text')
          .addColumn('closing_at', 'text')
          .execute();
        await sql`update leads set status = 'refused' where status = 'delivered' and exists (
        select 1 from delivery_steps where delivery_steps.lead_id = leads.id
        and delivery_steps.status = 'refused')`.execute(db);
      },
    },
    // The agency's team and its audit trail (docs/workspace-security.md).
    '2026-11-26-500-staff': staffMigration,
    // docs/consent.md, "Requests about one's data": the register of RGPD requests. The address is
    // `address`, not `email`: People.forget() deletes every row of an `email` column, and the
    // register must outlive an erasure (it blanks `address`, keeping `reference` and the dates).
    '2026-11-26-300-privacy-requests': {
      async up(db) {
        await db.schema
          .createTable('privacy_requests')
          .addColumn('id', 'text', (col) => col.primaryKey())
          .addColumn('received_at', 'text', (col) => col.notNull())
          .addColumn('channel', 'text', (col) => col.notNull())
          .addColumn('kind', 'text', (col) => col.notNull())
          .addColumn('address', 'text')
          .addColumn('reference', 'text', (col) => col.notNull())
          .addColumn('status', 'text', (col) => col.notNull())
          .addColumn('confirmed_at', 'text')
          .addColumn('handled_by', 'text')
          .addColumn('answered_at', 'text')
          .addColumn('note', 'text')
          .execute();
        await db.schema
          .createIndex('privacy_requests_received_at')
          .on('privacy_requests')
          .column('received_at')
          .execute();
      },
    },
    // docs/workspace.md: how the team works each lead (status, assignee, first reading), its notes and
    // history, and the indexes of the inbox (newest first, by status, by assignee, a person's leads).
    '2026-11-26-600-workspace-leads': {
      async up(db) {
        for (const column of ['assignee', 'read_at', 'read_by', 'started_at']) {
          await db.schema.alterTable('leads').addColumn(column, 'text').execute();
        }
        await db.schema
          .alterTable('leads')
          .addColumn('work_status', 'text', (col) => col.notNull().defaultTo('nouveau'))
          .execute();
        const indexes: [string, string[]][] = [
          ['leads_received', ['received_at', 'id']],
          ['leads_work_status', ['work_status', 'received_at', 'id']],
          ['leads_assignee', ['assignee', 'received_at', 'id']],
          ['leads_assignee_status', ['assignee', 'work_status', 'received_at', 'id']],
          ['leads_email', ['email', 'received_at']],
        ];
        for (const [name, columns] of indexes) {
          await db.schema.createIndex(name).on('leads').columns(columns).execute();
        }
        await db.schema
          .createTable('lead_activity')
          .addColumn('id', 'text', (col) => col.primaryKey())
          .addColumn('lead_id', 'text', (col) => col.notNull())
          .addColumn('at', 'text', (col) => col.notNull())
          .addColumn('staff_id', 'text', (col) => col.notNull())
          .addColumn('staff_name', 'text', (col) => col.notNull())
          .addColumn('kind', 'text', (col) => col.notNull())
          .addColumn('value', 'text')
          .addColumn('previous', 'text')
          .execute();
        await db.schema
          .createIndex('lead_activity_lead')
          .on('lead_activity')
          .columns(['lead_id', 'at'])
          .execute();
        await schema.createLeadSearch(db);
      },
    },
    // The workspace's RGPD desk: the register's manual entries and the opt-out list.
    '2026-11-26-700-privacy-desk': privacyDeskMigration,
    // docs/workspace.md, "Performances": what bench/workspace.ts found slow over 100,000 leads.
    '2026-11-26-710-inbox-indexes': {
      async up(db) {
        // One assignee's leads of one kind and status, newest first: the index answers all three
        // conditions, so the total counts only the matching leads instead of every lead of the
        // assignee in that status (and PostgreSQL no longer falls back to reading the whole table).
        await db.schema
          .createIndex('leads_assignee_kind_status')
          .on('leads')
          .columns(['assignee', 'kind', 'work_status', 'received_at', 'id'])
          .execute();
        await schema.storePayloadFields(db);
      },
    },
    // docs/workspace.md, « Le point du matin »: the team's daily summary, one row per business day;
    // « Le tableau de bord »: the leads started in a week, by index.
    '2026-11-26-720-team-summaries': {
      async up(db) {
        await db.schema
          .createTable('team_summaries')
          .addColumn('day', 'text', (col) => col.primaryKey())
          .addColumn('due_at', 'text', (col) => col.notNull())
          .addColumn('status', 'text', (col) => col.notNull())
          .addColumn('attempts', 'integer', (col) => col.notNull())
          .addColumn('next_attempt_at', 'text', (col) => col.notNull())
          .addColumn('lease_until', 'text')
          .addColumn('last_error', 'text')
          .addColumn('detail', 'text')
          .addColumn('updated_at', 'text', (col) => col.notNull())
          .execute();
        // The dashboard's « Délai avant « en cours » » reads the leads started in a week.
        await db.schema.createIndex('leads_started').on('leads').column('started_at').execute();
      },
    },
    // docs/delivery.md, « Provider rate budgets »: a budget holds its latest reserved calls (a sliding
    // window) instead of one next slot; `next_slot_at` keeps a 429's « not before ».
    '2026-11-26-730-provider-budget-windows': {
      async up(db) {
        await db.schema
          .alterTable('provider_budgets')
          .addColumn('recent_calls', 'text', (col) => col.notNull().defaultTo(''))
          .execute();
      },
    },
    // docs/delivery.md, « Alerts »: a lane-wide cause counts the steps of every destination it holds.
    '2026-11-28-740-alert-holds': {
      async up(db) {
        await db.schema.alterTable('delivery_alerts').addColumn('holds', 'text').execute();
      },
    },
    // docs/workspace-security.md, "Audit trail": a throttled burst is one line with its count.
    '2026-11-28-750-audit-repeats': {
      async up(db) {
        await db.schema
          .alterTable('staff_audit')
          .addColumn('repeats', 'integer', (col) => col.notNull().defaultTo(1))
          .execute();
      },
    },
    // docs/workspace.md, « Répondre »: the answers given from the lead page, e-mails and calls.
    '2026-12-02-800-lead-answers': leadAnswersMigration,
    // docs/inbound.md: the prospects' replies, bounces and complaints.
    '2026-12-02-810-inbound': inboundMigration,
    // docs/delivery.md, « The dispatcher »: a step planned again while it runs is left due by the
    // run's settle.
    '2026-12-02-820-step-revisions': {
      async up(db) {
        await db.schema
          .alterTable('delivery_steps')
          .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(0))
          .execute();
      },
    },
    // docs/workspace.md, « La promesse des 24 heures ouvrées »: a lead's first answer, on the lead.
    '2026-12-02-830-answered-at': answeredAtMigration(schema.indexAwaitingAnswer),
    // docs/performance.md, « The workspace »: the due index also holds what the backlog counts (the
    // dashboard, /metrics), so its count by destination reads the index alone, not every dead step's
    // row (13 → 1.5 ms at 100,000 leads on SQLite); still one index to write per step.
    '2026-12-02-900-backlog-in-due-index': {
      async up(db) {
        await db.schema.dropIndex('delivery_steps_due').execute();
        await db.schema
          .createIndex('delivery_steps_due')
          .on('delivery_steps')
          .columns(['status', 'next_attempt_at', 'provider', 'destination', 'received_at'])
          .execute();
      },
    },
  };
}

function migrator(db: Kysely<unknown>, schema: DialectSchema): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations(schema) },
    // Kysely's default, localeCompare, loads ICU's collation at every start (~14 ms, a thirtieth of
    // a start: docs/performance.md, "What a start loads"); the names are ASCII dates, and code-unit
    // order is the order Kysely sorts the known migrations in anyway.
    nameComparator: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  });
}

/**
 * docs/operations.md (« Upgrades and rollback »): the journal holds a migration this code does not
 * know, so a newer leadgate wrote it. Like PostgreSQL and SQLite refusing a newer on-disk format,
 * nothing is written: the operator runs the newer version again or restores the backup.
 */
export class NewerJournalError extends Error {
  override readonly name = 'NewerJournalError';
}

/** The migrations the journal says were applied that this code does not know; reads only. */
export async function unknownMigrations(
  db: Kysely<unknown>,
  schema: DialectSchema,
): Promise<string[]> {
  let applied: string[];
  try {
    const rows = await (db as Kysely<{ kysely_migration: { name: string } }>)
      .selectFrom('kysely_migration')
      .select('name')
      .execute();
    applied = rows.map((row) => row.name);
  } catch {
    // A new journal: no migration table yet.
    return [];
  }
  const known = new Set(Object.keys(migrations(schema)));
  return applied.filter((name) => !known.has(name)).sort();
}

export async function migrateToLatest(db: Kysely<unknown>, schema: DialectSchema): Promise<void> {
  const { error } = await migrator(db, schema).migrateToLatest();
  if (error) throw error;
}

export interface MigrationState {
  name: string;
  /** When it was applied; undefined while pending. */
  appliedAt: Date | undefined;
}

/** Every migration this code knows, applied or pending, oldest first; reads only. */
export async function migrationStates(
  db: Kysely<unknown>,
  schema: DialectSchema,
): Promise<MigrationState[]> {
  const infos = await migrator(db, schema).getMigrations();
  return infos.map((info) => ({ name: info.name, appliedAt: info.executedAt }));
}
