import type { Kysely } from 'kysely';
import { LEAD_STATUSES, type LeadStatus } from '../kernel/lead/lead-status.ts';
import type { JournalEntry, Store } from '../kernel/journal/store.ts';
import type { LeadKind } from '../kernel/schemas/lead-kinds.ts';
import { entryOf as toEntry } from '../kernel/journal/lead-rows.ts';
import { SqlConfirmationSends } from '../features/newsletter/sql-confirmation-sends.ts';
import { SqlDeliveries } from '../kernel/journal/sql-deliveries.ts';
import { SqlDeliveryAlerts } from '../features/delivery/sql-delivery-alerts.ts';
import type { LeadSearchDialect } from '../kernel/journal/lead-search.ts';
import { SqlTeamSummaries } from '../features/inbox/sql-team-summaries.ts';
import { SqlLeadWork } from '../features/inbox/sql-lead-work.ts';
import { SqlNewsletter } from '../features/newsletter/sql-newsletter.ts';
import { SqlOptOut } from '../features/newsletter/sql-opt-out.ts';
import { SqlPeople } from '../features/privacy/sql-people.ts';
import { SqlPrivacyRequests } from '../features/privacy/sql-privacy-requests.ts';
import { SqlInbound } from '../features/inbound/sql-inbound.ts';
import { SqlIdempotencyKeys } from '../features/intake/sql-idempotency-keys.ts';
import { SqlRateBudgets } from '../features/delivery/sql-rate-budgets.ts';
import { databaseSecret } from '../kernel/journal/sql-secrets.ts';
import type { JournalWrites } from '../kernel/journal/journal-writes.ts';
import { SqlStaff } from '../features/staff/sql-staff.ts';
import { SqlAnswers } from '../features/answers/sql-answers.ts';
import type { Database } from '../kernel/journal/tables.ts';
import { importLeads, type LeadsImport } from '../kernel/journal/journal-import.ts';

/**
 * The journal in SQL that SQLite and PostgreSQL both run; what differs between them is `writes`, the
 * adapter createStore picks (journal-writes.ts).
 */
export class SqlStore implements Store {
  readonly deliveries: SqlDeliveries;
  readonly budgets: SqlRateBudgets;
  readonly idempotency: SqlIdempotencyKeys;
  readonly confirmations: SqlConfirmationSends;
  readonly people: SqlPeople;
  readonly newsletter: SqlNewsletter;
  readonly staff: SqlStaff;
  readonly alerts: SqlDeliveryAlerts;
  readonly privacyRequests: SqlPrivacyRequests;
  readonly work: SqlLeadWork;
  readonly optOut: SqlOptOut;
  readonly teamSummaries: SqlTeamSummaries;
  readonly answers: SqlAnswers;
  readonly inbound: SqlInbound;

  constructor(
    private readonly db: Kysely<Database>,
    writes: JournalWrites,
    /** The full-text search and JSON reads of the workspace's inbox, per dialect (lead-search.ts). */
    search: LeadSearchDialect,
    /** Configured keys and passwords a provider's words may quote (docs/delivery.md, « Alerts »). */
    secrets: readonly string[] = [],
  ) {
    this.deliveries = new SqlDeliveries(db, writes);
    this.budgets = new SqlRateBudgets(db);
    this.idempotency = new SqlIdempotencyKeys(db);
    this.confirmations = new SqlConfirmationSends(db, writes);
    this.people = new SqlPeople(db, toEntry, (tables) => writes.afterErasure(tables));
    this.newsletter = new SqlNewsletter(db);
    this.staff = new SqlStaff(db);
    this.alerts = new SqlDeliveryAlerts(db, secrets);
    this.privacyRequests = new SqlPrivacyRequests(db);
    this.work = new SqlLeadWork(db, search);
    this.optOut = new SqlOptOut(db, (address) => this.people.reference(address));
    this.teamSummaries = new SqlTeamSummaries(db);
    this.answers = new SqlAnswers(db);
    this.inbound = new SqlInbound(db);
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
      // docs/inbound.md: a lead's messages go with it; those no lead took, by their own date.
      await trx.deleteFrom('inbound_messages').where('lead_id', 'in', old).execute();
      await trx
        .deleteFrom('inbound_messages')
        .where('lead_id', 'is', null)
        .where('received_at', '<', before.toISOString())
        .execute();
      const deleted = await trx
        .deleteFrom('leads')
        .where('received_at', '<', before.toISOString())
        .executeTakeFirst();
      // What bounces said of an address lives as long as a lead of it does.
      await trx
        .deleteFrom('address_flags')
        .where('email', 'not in', trx.selectFrom('leads').select('email'))
        .execute();
      return Number(deleted.numDeletedRows);
    });
  }

  secret(purpose: string): Promise<string> {
    return databaseSecret(this.db, purpose);
  }

  importLeads(source: Kysely<Database>): Promise<LeadsImport> {
    return importLeads(this.db, source);
  }

  async ping(): Promise<void> {
    await this.db.selectFrom('leads').select('id').limit(1).execute();
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}
