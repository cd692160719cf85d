import type { Kysely, Selectable } from 'kysely';
import { normalizeEmail } from '../../kernel/lead/lead.ts';
import type { Database, InboundMessagesTable } from '../../kernel/journal/tables.ts';
import type {
  AddressEvent,
  AddressFlag,
  AddressState,
  InboundJournal,
  InboundMessage,
} from './inbound-journal.ts';

/** docs/inbound.md, « Rebonds et plaintes »: a complaint outranks a hard bounce, which outranks a full box. */
const RANK: Record<AddressState, number> = {
  'soft-bounce': 0,
  'mailbox-full': 1,
  unreachable: 2,
  complaint: 3,
};

export class SqlInbound implements InboundJournal {
  constructor(private readonly db: Kysely<Database>) {}

  async leadOfSentMessage(messageIds: readonly string[]): Promise<string | undefined> {
    if (messageIds.length === 0) return undefined;
    const row = await this.db
      .selectFrom('delivery_steps')
      .select('lead_id')
      .where('detail', 'in', [...messageIds])
      .orderBy('received_at', 'desc')
      .executeTakeFirst();
    if (row) return row.lead_id;
    // Each answer keeps its own Message-ID (docs/workspace.md, « Répondre »), while the
    // `staff-answer` step's detail holds its latest run's only: a reply to an earlier answer.
    const answered = await this.db
      .selectFrom('lead_answers')
      .select('lead_id')
      .where('sent_detail', 'in', [...messageIds])
      .orderBy('at', 'desc')
      .executeTakeFirst();
    return answered?.lead_id;
  }

  async latestLeadOf(address: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('leads')
      .select('id')
      .where('email', '=', normalizeEmail(address))
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row?.id;
  }

  async add(message: Omit<InboundMessage, 'readAt'>): Promise<boolean> {
    const result = await this.db
      .insertInto('inbound_messages')
      .values({
        id: message.id,
        lead_id: message.leadId,
        email: normalizeEmail(message.from),
        received_at: message.receivedAt.toISOString(),
        source: message.source,
        message_id: message.messageId,
        subject: message.subject,
        body: message.body,
        quoted: message.quoted,
        attachments: JSON.stringify(message.attachments),
        matched_by: message.matchedBy,
        review_reason: message.reviewReason,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async ofLead(leadId: string): Promise<InboundMessage[]> {
    const rows = await this.db
      .selectFrom('inbound_messages')
      .selectAll()
      .where('lead_id', '=', leadId)
      .orderBy('received_at')
      .execute();
    return rows.map(messageOf);
  }

  async unmatched(limit: number): Promise<InboundMessage[]> {
    const rows = await this.db
      .selectFrom('inbound_messages')
      .selectAll()
      .where('lead_id', 'is', null)
      .orderBy('received_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map(messageOf);
  }

  async countUnmatched(): Promise<number> {
    const row = await this.db
      .selectFrom('inbound_messages')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('lead_id', 'is', null)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async attach(id: string, leadId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('inbound_messages')
      .set({ lead_id: leadId, matched_by: 'staff', review_reason: null })
      .where('id', '=', id)
      .where('lead_id', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  }

  async dismiss(id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('inbound_messages')
      .where('id', '=', id)
      .where('lead_id', 'is', null)
      .executeTakeFirst();
    return result.numDeletedRows === 1n;
  }

  async markRead(leadId: string, byName: string, at: Date): Promise<void> {
    await this.db
      .updateTable('inbound_messages')
      .set({ read_at: at.toISOString(), read_by: byName })
      .where('lead_id', '=', leadId)
      .where('read_at', 'is', null)
      .execute();
  }

  async unreadAmong(leadIds: readonly string[]): Promise<Set<string>> {
    if (leadIds.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('inbound_messages')
      .select('lead_id')
      .distinct()
      .where('lead_id', 'in', [...leadIds])
      .where('read_at', 'is', null)
      .execute();
    return new Set(rows.flatMap((row) => (row.lead_id ? [row.lead_id] : [])));
  }

  async leadsToSee(limit: number): Promise<string[]> {
    const unread = await this.db
      .selectFrom('inbound_messages')
      .select((eb) => ['lead_id', eb.fn.max('received_at').as('latest')])
      .where('lead_id', 'is not', null)
      .where('read_at', 'is', null)
      .groupBy('lead_id')
      .orderBy('latest', 'desc')
      .limit(limit)
      .execute();
    const flagged = await this.db
      .selectFrom('leads')
      .innerJoin('address_flags', 'address_flags.email', 'leads.email')
      .select('leads.id')
      .where('address_flags.state', 'in', ['unreachable', 'mailbox-full', 'complaint'])
      .where('leads.work_status', 'in', ['nouveau', 'en-cours'])
      .orderBy('address_flags.flagged_at', 'desc')
      .orderBy('leads.received_at', 'desc')
      .limit(limit)
      .execute();
    const ids = [...unread.map((row) => row.lead_id!), ...flagged.map((row) => row.id)];
    return [...new Set(ids)].slice(0, limit);
  }

  async flag(
    address: string,
    event: AddressEvent,
    reason: string | null,
    at: Date,
    softRepeats: number,
  ): Promise<AddressFlag> {
    const email = normalizeEmail(address);
    const soft = event === 'soft' ? 1 : 0;
    // One statement counts the soft bounces, another raises the state only (RANK): two nodes
    // recording events of one address at once lose neither (no read-then-write).
    const counted = await this.db
      .insertInto('address_flags')
      .values({
        email,
        state: 'soft-bounce',
        soft_bounces: soft,
        reason,
        flagged_at: at.toISOString(),
      })
      .onConflict((oc) =>
        oc.column('email').doUpdateSet((eb) => ({
          soft_bounces: eb('address_flags.soft_bounces', '+', soft),
          flagged_at: at.toISOString(),
        })),
      )
      .returning('soft_bounces')
      .executeTakeFirstOrThrow();
    const said: AddressState =
      event === 'complaint'
        ? 'complaint'
        : event === 'hard'
          ? 'unreachable'
          : counted.soft_bounces >= softRepeats
            ? 'mailbox-full'
            : 'soft-bounce';
    const lower = (Object.keys(RANK) as AddressState[]).filter((s) => RANK[s] < RANK[said]);
    if (lower.length > 0) {
      await this.db
        .updateTable('address_flags')
        .set({ state: said, reason })
        .where('email', '=', email)
        .where('state', 'in', lower)
        .execute();
    }
    const row = await this.db
      .selectFrom('address_flags')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return flagOf(row);
  }

  async flagsAmong(addresses: readonly string[]): Promise<Map<string, AddressFlag>> {
    const byEmail = new Map(addresses.map((address) => [normalizeEmail(address), address]));
    if (byEmail.size === 0) return new Map();
    const rows = await this.db
      .selectFrom('address_flags')
      .selectAll()
      .where('email', 'in', [...byEmail.keys()])
      .execute();
    return new Map(rows.map((row) => [byEmail.get(row.email) ?? row.email, flagOf(row)]));
  }
}

function flagOf(row: Selectable<Database['address_flags']>): AddressFlag {
  return {
    email: row.email,
    state: row.state as AddressState,
    softBounces: row.soft_bounces,
    reason: row.reason,
    flaggedAt: new Date(row.flagged_at),
  };
}

function messageOf(row: Selectable<InboundMessagesTable>): InboundMessage {
  return {
    id: row.id,
    leadId: row.lead_id,
    from: row.email,
    receivedAt: new Date(row.received_at),
    source: row.source as InboundMessage['source'],
    messageId: row.message_id,
    subject: row.subject,
    body: row.body,
    quoted: row.quoted,
    attachments: JSON.parse(row.attachments) as InboundMessage['attachments'],
    matchedBy: row.matched_by as InboundMessage['matchedBy'],
    reviewReason: row.review_reason,
    readAt: row.read_at ? new Date(row.read_at) : null,
  };
}
