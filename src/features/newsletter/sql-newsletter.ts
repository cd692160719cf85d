import type { Kysely } from 'kysely';
import type { StepTarget } from '../../kernel/lead/destination.ts';
import { emailOf, normalizeEmail, type Lead } from '../../kernel/lead/lead.ts';
import {
  isNewsletterSubscription,
  type NewsletterJournal,
  type SubscriptionState,
} from './newsletter.ts';
import { LEAD_KINDS } from '../../kernel/schemas/lead-kinds.ts';
import { leadOf } from '../../kernel/journal/lead-rows.ts';
import { refreshLeadSummary } from '../../kernel/journal/step-settlement.ts';
import { insertSteps } from '../../kernel/journal/step-rows.ts';
import { databaseSecret } from '../../kernel/journal/sql-secrets.ts';
import type { Database } from '../../kernel/journal/tables.ts';

const date = (text: string | null) => (text === null ? null : new Date(text));

/** The double opt-in's journal (docs/consent.md), in the SQL both dialects run. */
export class SqlNewsletter implements NewsletterJournal {
  private key: Promise<string> | undefined;

  constructor(private readonly db: Kysely<Database>) {}

  signingKey(): Promise<string> {
    this.key ??= databaseSecret(this.db, 'newsletter-links');
    return this.key;
  }

  async isSubscribed(email: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('newsletter_confirmations')
      .select('lead_id')
      .where('email', '=', normalizeEmail(email))
      .where('confirmed_at', 'is not', null)
      .where('withdrawn_at', 'is', null)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async earlierRequests(email: string, before: Date): Promise<number> {
    const kinds = LEAD_KINDS.filter(isNewsletterSubscription).map((kind) => kind.kind);
    const row = await this.db
      .selectFrom('leads')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('email', '=', normalizeEmail(email))
      .where('kind', 'in', kinds)
      .where('status', '!=', 'spam')
      .where('received_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async stateOf(leadId: string): Promise<SubscriptionState | undefined> {
    const row = await this.db
      .selectFrom('leads')
      .leftJoin('newsletter_confirmations', 'newsletter_confirmations.lead_id', 'leads.id')
      .selectAll('leads')
      .select(['confirmed_at', 'withdrawn_at'])
      .where('leads.id', '=', leadId)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      lead: leadOf(row),
      confirmedAt: date(row.confirmed_at),
      withdrawnAt: date(row.withdrawn_at),
    };
  }

  async confirm(
    lead: Lead,
    at: Date,
    network: string | null,
    steps: readonly StepTarget[],
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      // The primary key is the single use: of two clicks racing on two nodes, one inserts.
      const inserted = await trx
        .insertInto('newsletter_confirmations')
        .values({
          lead_id: lead.id,
          email: normalizeEmail(emailOf(lead)),
          confirmed_at: at.toISOString(),
          confirmed_network: network,
          withdrawn_at: null,
        })
        .onConflict((oc) => oc.column('lead_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
      if (steps.length > 0) {
        await insertSteps(trx, lead, steps, at);
        await refreshLeadSummary(trx, lead.id, at);
      }
      return true;
    });
  }

  async withdraw(lead: Lead, at: Date, steps: readonly StepTarget[]): Promise<string[]> {
    const email = normalizeEmail(emailOf(lead));
    return this.db.transaction().execute(async (trx) => {
      const withdrawn = await trx
        .updateTable('newsletter_confirmations')
        .set({ withdrawn_at: at.toISOString() })
        .where('email', '=', email)
        .where('confirmed_at', 'is not', null)
        .where('withdrawn_at', 'is', null)
        .returning('lead_id')
        .execute();
      // A request still unconfirmed is withdrawn too: its link must not subscribe anyone later.
      await trx
        .insertInto('newsletter_confirmations')
        .values({
          lead_id: lead.id,
          email,
          confirmed_at: null,
          confirmed_network: null,
          withdrawn_at: at.toISOString(),
        })
        .onConflict((oc) => oc.column('lead_id').doNothing())
        .execute();
      const leadIds = withdrawn.map((row) => row.lead_id);
      if (leadIds.length === 0 || steps.length === 0) return leadIds;
      const leads = await trx
        .selectFrom('leads')
        .select(['id', 'received_at'])
        .where('id', 'in', leadIds)
        .execute();
      for (const row of leads) {
        await insertSteps(trx, { id: row.id, receivedAt: new Date(row.received_at) }, steps, at);
        await refreshLeadSummary(trx, row.id, at);
      }
      return leadIds;
    });
  }
}
