import { createHmac } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import { normalizeEmail } from '../../kernel/lead/lead.ts';
import type { JournalEntry } from '../../kernel/journal/store.ts';
import type { Expiry, ForgetResult, People, PersonFile } from './journal.ts';
import { databaseSecret } from '../../kernel/journal/sql-secrets.ts';
import type { Database, LeadsTable } from '../../kernel/journal/tables.ts';

/** Tables read by name, found at run time: typed loosely on purpose. */
type AnyTables = Record<string, Record<string, unknown>>;

interface PersonTables {
  /** Tables with a `lead_id` column, `leads` excepted. */
  byLead: string[];
  /** Tables with an `email` column, `leads` excepted. */
  byAddress: string[];
}

export class SqlPeople implements People {
  private key: Promise<string> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    /** The journal's own row reader (sql-store.ts), so a person's leads read as the CLI's do. */
    private readonly toEntry: (row: Selectable<LeadsTable>) => JournalEntry,
    /**
     * docs/consent.md, "Erasure": run after an erasure commits, with the tables it wrote to, so the
     * erased bytes leave the database files too (SQLite: the WAL checkpointed and truncated;
     * PostgreSQL: VACUUM). Chosen by create-store.ts.
     */
    private readonly afterErasure: (tables: readonly string[]) => Promise<void> = async () => {},
  ) {}

  async reference(address: string): Promise<string> {
    this.key ??= databaseSecret(this.db, 'people-reference');
    return createHmac('sha256', await this.key)
      .update(normalizeEmail(address))
      .digest('hex');
  }

  async show(address: string): Promise<PersonFile> {
    const email = normalizeEmail(address);
    const reference = await this.reference(email);
    const [tables, rows, forgotten, requests] = await Promise.all([
      this.personTables(),
      this.db
        .selectFrom('leads')
        .selectAll()
        .where('email', '=', email)
        .orderBy('received_at')
        .execute(),
      this.db
        .selectFrom('forgotten_people')
        .select('forgotten_at')
        .where('reference', '=', reference)
        .executeTakeFirst(),
      // The register names the address in `address` (it outlives an erasure): its lines are theirs too.
      this.db
        .selectFrom('privacy_requests')
        .selectAll()
        .where('address', '=', email)
        .orderBy('received_at')
        .execute(),
    ]);
    const leads = rows.map(this.toEntry);
    const ids = leads.map((entry) => entry.lead.id);
    const loose = this.db as unknown as Kysely<AnyTables>;
    const related: PersonFile['related'] = { privacy_requests: requests };
    for (const table of tables.byLead) {
      if (ids.length)
        related[table] = await loose
          .selectFrom(table)
          .selectAll()
          .where('lead_id', 'in', ids)
          .execute();
    }
    for (const table of tables.byAddress) {
      related[table] = await loose
        .selectFrom(table)
        .selectAll()
        .where('email', '=', email)
        .execute();
    }
    const hashes = [
      ...new Set(rows.flatMap((row) => (row.consent_wording ? [row.consent_wording] : []))),
    ];
    const consentWordings = hashes.length
      ? await this.db
          .selectFrom('consent_wordings')
          .select(['hash', 'version', 'text'])
          .where('hash', 'in', hashes)
          .execute()
      : [];
    return {
      reference,
      leads,
      consentWordings,
      related: Object.fromEntries(Object.entries(related).filter(([, list]) => list.length > 0)),
      forgottenAt: forgotten ? new Date(forgotten.forgotten_at) : null,
    };
  }

  async forget(address: string, at: Date): Promise<ForgetResult> {
    const email = normalizeEmail(address);
    const [reference, tables] = await Promise.all([this.reference(email), this.personTables()]);
    const result = await this.db.transaction().execute(async (trx) => {
      const erased = await erase(trx, email, tables);
      const requests = await trx
        .selectFrom('privacy_requests')
        .select('id')
        .where('address', '=', email)
        .execute();
      // The register of requests outlives the erasure: it keeps the reference and the dates only.
      await trx
        .updateTable('privacy_requests')
        .set({ address: null })
        .where('address', '=', email)
        .execute();
      // Re-running is safe: the reference stays, with the date of the last erasure.
      await trx
        .insertInto('forgotten_people')
        .values({ reference, forgotten_at: at.toISOString() })
        .onConflict((oc) => oc.column('reference').doUpdateSet({ forgotten_at: at.toISOString() }))
        .execute();
      return { reference, ...erased, requestIds: requests.map((row) => row.id) };
    });
    await this.afterErasure(erasedTables(tables));
    return result;
  }

  async expire(lastRequestBefore: Date): Promise<Expiry> {
    const tables = await this.personTables();
    const stale = await this.db
      .selectFrom('leads')
      .select('email')
      .groupBy('email')
      .having((eb) => eb.fn.max('received_at'), '<', lastRequestBefore.toISOString())
      .execute();
    const leadIds: string[] = [];
    for (const { email } of stale) {
      const erased = await this.db.transaction().execute((trx) => erase(trx, email, tables));
      leadIds.push(...erased.leadIds);
    }
    if (stale.length > 0) await this.afterErasure(erasedTables(tables));
    return { people: stale.length, leadIds };
  }

  private async personTables(): Promise<PersonTables> {
    const tables = await this.db.introspection.getTables();
    const having = (column: string) =>
      tables
        .filter((table) => table.name !== 'leads' && table.columns.some((c) => c.name === column))
        .map((table) => table.name);
    return { byLead: having('lead_id'), byAddress: having('email') };
  }
}

function erasedTables({ byLead, byAddress }: PersonTables): string[] {
  return [...new Set(['leads', ...byLead, ...byAddress])];
}

/** Deletes every row of one address: its leads, the rows tied to them, the rows holding it. */
async function erase(
  trx: Transaction<Database>,
  email: string,
  tables: PersonTables,
): Promise<Omit<ForgetResult, 'reference' | 'requestIds'>> {
  const loose = trx as unknown as Transaction<AnyTables>;
  const leadIds = (
    await trx.selectFrom('leads').select('id').where('email', '=', email).execute()
  ).map((row) => row.id);
  const deleted: Record<string, number> = {};
  const count = (table: string, result: { numDeletedRows: bigint }) => {
    const rows = Number(result.numDeletedRows);
    if (rows > 0) deleted[table] = rows;
  };
  for (const table of tables.byLead) {
    if (leadIds.length) {
      count(
        table,
        await loose.deleteFrom(table).where('lead_id', 'in', leadIds).executeTakeFirst(),
      );
    }
  }
  count('leads', await trx.deleteFrom('leads').where('email', '=', email).executeTakeFirst());
  for (const table of tables.byAddress) {
    count(table, await loose.deleteFrom(table).where('email', '=', email).executeTakeFirst());
  }
  return { leadIds, deleted };
}
