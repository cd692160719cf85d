import type { Kysely, Selectable } from 'kysely';
import type { Lead, LeadKind } from '../domain/lead.ts';
import { emailOf, normalizeEmail } from '../domain/lead.ts';
import type { JournalEntry, LeadStatus, Store } from './store.ts';
import type { Database, LeadsTable } from './tables.ts';

/** The journal in SQL that SQLite and PostgreSQL both run: one implementation, two dialects. */
export class SqlStore implements Store {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(lead: Lead): Promise<void> {
    await this.db
      .insertInto('leads')
      .values({
        id: lead.id,
        kind: lead.kind,
        email: normalizeEmail(emailOf(lead)),
        payload: JSON.stringify(lead.data),
        received_at: lead.receivedAt.toISOString(),
        status: 'pending',
        attempts: 0,
        updated_at: lead.receivedAt.toISOString(),
      })
      .execute();
  }

  async markDelivered(id: string, providerAnswer: string): Promise<{ alreadyKnown: boolean }> {
    const at = this.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('leads')
        .set((eb) => ({
          status: 'delivered',
          attempts: eb('attempts', '+', 1),
          provider_answer: providerAnswer,
          last_error: null,
          updated_at: at,
        }))
        .where('id', '=', id)
        .returning(['kind', 'email'])
        .executeTakeFirstOrThrow();
      // The primary key makes "first to deliver wins" atomic, even across nodes sharing a database.
      const inserted = await trx
        .insertInto('known_addresses')
        .values({ audience: row.kind, email: row.email, first_seen_at: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return { alreadyKnown: Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0 };
    });
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.db
      .updateTable('leads')
      .set((eb) => ({
        status: 'failed',
        attempts: eb('attempts', '+', 1),
        last_error: error,
        updated_at: this.now().toISOString(),
      }))
      .where('id', '=', id)
      .execute();
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

  async ping(): Promise<void> {
    await this.db.selectFrom('leads').select('id').limit(1).execute();
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

function toEntry(row: Selectable<LeadsTable>): JournalEntry {
  return {
    lead: {
      id: row.id,
      kind: row.kind,
      data: JSON.parse(row.payload),
      receivedAt: new Date(row.received_at),
    } as Lead,
    status: row.status as LeadStatus,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    providerAnswer: row.provider_answer,
    updatedAt: new Date(row.updated_at),
  };
}
