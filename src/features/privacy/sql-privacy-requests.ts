import type { Kysely, Selectable } from 'kysely';
import type {
  PrivacyChannel,
  PrivacyRegister,
  PrivacyRequestChange,
  PrivacyRequestEntry,
  PrivacyRequestKind,
  PrivacyStatus,
} from './privacy-register.ts';
import type { Database, PrivacyRequestsTable } from '../../kernel/journal/tables.ts';

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);
const date = (text: string | null) => (text === null ? null : new Date(text));

function entryOf(row: Selectable<PrivacyRequestsTable>): PrivacyRequestEntry {
  return {
    id: row.id,
    receivedAt: new Date(row.received_at),
    channel: row.channel as PrivacyChannel,
    kind: row.kind as PrivacyRequestKind,
    address: row.address,
    reference: row.reference,
    status: row.status as PrivacyStatus,
    confirmedAt: date(row.confirmed_at),
    handledBy: row.handled_by,
    answeredAt: date(row.answered_at),
    note: row.note,
    identityCheck: row.identity_check,
    outcome: row.outcome,
  };
}

/** The register of RGPD requests (docs/consent.md), in the SQL both dialects run. */
export class SqlPrivacyRequests implements PrivacyRegister {
  constructor(private readonly db: Kysely<Database>) {}

  async add(entry: PrivacyRequestEntry): Promise<void> {
    await this.db
      .insertInto('privacy_requests')
      .values({
        id: entry.id,
        received_at: entry.receivedAt.toISOString(),
        channel: entry.channel,
        kind: entry.kind,
        address: entry.address,
        reference: entry.reference,
        status: entry.status,
        confirmed_at: iso(entry.confirmedAt),
        handled_by: entry.handledBy,
        answered_at: iso(entry.answeredAt),
        note: entry.note,
        identity_check: entry.identityCheck,
        outcome: entry.outcome,
      })
      .execute();
  }

  async find(id: string): Promise<PrivacyRequestEntry | undefined> {
    const row = await this.db
      .selectFrom('privacy_requests')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? entryOf(row) : undefined;
  }

  async list(filter: { statuses?: readonly PrivacyStatus[] } = {}): Promise<PrivacyRequestEntry[]> {
    let query = this.db
      .selectFrom('privacy_requests')
      .selectAll()
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc');
    if (filter.statuses?.length) query = query.where('status', 'in', [...filter.statuses]);
    return (await query.execute()).map(entryOf);
  }

  async update(id: string, change: PrivacyRequestChange): Promise<void> {
    const set = {
      ...(change.status !== undefined && { status: change.status }),
      ...(change.confirmedAt !== undefined && { confirmed_at: iso(change.confirmedAt) }),
      ...(change.handledBy !== undefined && { handled_by: change.handledBy }),
      ...(change.answeredAt !== undefined && { answered_at: iso(change.answeredAt) }),
      ...(change.note !== undefined && { note: change.note }),
      ...(change.identityCheck !== undefined && { identity_check: change.identityCheck }),
      ...(change.outcome !== undefined && { outcome: change.outcome }),
    };
    if (Object.keys(set).length === 0) return;
    await this.db.updateTable('privacy_requests').set(set).where('id', '=', id).execute();
  }

  async confirm(id: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('privacy_requests')
      .set({ status: 'confirmed', confirmed_at: at.toISOString(), handled_by: 'lien' })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
