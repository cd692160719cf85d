import type { Kysely, Selectable } from 'kysely';
import type { OptOutEntry, OptOutList } from './opt-out.ts';
import type { Database, OptOutsTable } from '../../kernel/journal/tables.ts';

const entryOf = (row: Selectable<OptOutsTable>): OptOutEntry => ({
  reference: row.reference,
  addedAt: new Date(row.added_at),
  addedBy: row.added_by,
  reason: row.reason,
});

/**
 * The opt-out list (docs/workspace-privacy.md, « Liste d’opposition »), keyed by People.reference:
 * the HMAC-SHA256 of the normalised address under the database's own key, the name the forgotten
 * list and the audit trail already give a person.
 */
export class SqlOptOut implements OptOutList {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly reference: (address: string) => Promise<string>,
  ) {}

  async add(address: string, entry: Omit<OptOutEntry, 'reference'>): Promise<string> {
    const reference = await this.reference(address);
    await this.db
      .insertInto('opt_outs')
      .values({
        reference,
        added_at: entry.addedAt.toISOString(),
        added_by: entry.addedBy,
        reason: entry.reason,
      })
      .onConflict((oc) => oc.column('reference').doNothing())
      .execute();
    return reference;
  }

  async remove(reference: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('opt_outs')
      .where('reference', '=', reference)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async find(address: string): Promise<OptOutEntry | undefined> {
    const row = await this.db
      .selectFrom('opt_outs')
      .selectAll()
      .where('reference', '=', await this.reference(address))
      .executeTakeFirst();
    return row ? entryOf(row) : undefined;
  }

  async among(addresses: readonly string[]): Promise<Set<string>> {
    const unique = [...new Set(addresses)];
    if (unique.length === 0) return new Set();
    const references = await Promise.all(unique.map((address) => this.reference(address)));
    const found = await this.db
      .selectFrom('opt_outs')
      .select('reference')
      .where('reference', 'in', references)
      .execute();
    const listed = new Set(found.map((row) => row.reference));
    return new Set(unique.filter((_, index) => listed.has(references[index]!)));
  }

  async list(limit: number): Promise<OptOutEntry[]> {
    const rows = await this.db
      .selectFrom('opt_outs')
      .selectAll()
      .orderBy('added_at', 'desc')
      .orderBy('reference')
      .limit(limit)
      .execute();
    return rows.map(entryOf);
  }
}
