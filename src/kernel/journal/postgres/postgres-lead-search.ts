import { sql, type Kysely } from 'kysely';
import type { LeadSearchDialect } from '../lead-search.ts';
import type { DialectSchema } from '../migrations.ts';

const ACCENTED = 'àâäáãåçéèêëíìîïñóòôöõúùûüýÿÀÂÄÁÃÅÇÉÈÊËÍÌÎÏÑÓÒÔÖÕÚÙÛÜÝŸ';
const UNACCENTED = 'aaaaaaceeeeiiiinooooouuuuyyAAAAAACEEEEIIIINOOOOOUUUUYY';

/**
 * PostgreSQL: the words of a lead's payload without accents, as ASCII words ('simple' lower-cases
 * them), JSON escapes and punctuation turned to spaces so an address is found by any of its parts.
 * Stored in the column `search_words` (migration "2026-11-26-710-inbox-indexes"), which the query
 * (postgresLeadSearch below) and the GIN index read.
 */
const POSTGRES_LEAD_DOCUMENT = `to_tsvector('simple'::regconfig, regexp_replace(translate(payload, '${ACCENTED}', '${UNACCENTED}'), '\\\\[nrtbf]|[^A-Za-z0-9]+', ' ', 'g'))`;

/**
 * PostgreSQL: what the inbox reads from the payload, kept in stored columns rather than computed by
 * the indexes only. A filter or a search listed newest first, and the totals, test the leads one by
 * one; on the expressions each test parsed the payload again (the words: about 65 µs a lead with
 * the regular expression; the sector: a JSON parse), on the columns it reads a value. The indexes
 * move to the columns.
 */
async function storePayloadFields(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    // One statement, so the table is rewritten once.
    `ALTER TABLE leads
       ADD COLUMN search_words tsvector GENERATED ALWAYS AS (${POSTGRES_LEAD_DOCUMENT}) STORED,
       ADD COLUMN audit_sector text GENERATED ALWAYS AS ((payload::jsonb ->> 'sector')) STORED`,
    `DROP INDEX leads_search`,
    `DROP INDEX leads_sector`,
    `CREATE INDEX leads_search_words ON leads USING gin (search_words)`,
    // The channel too: counting a sector's leads of one channel then reads only those.
    `CREATE INDEX leads_audit_sector ON leads (audit_sector, consent_channel, received_at, id)`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

async function createLeadSearch(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE INDEX leads_search ON leads USING gin ((${POSTGRES_LEAD_DOCUMENT}))`)
    .execute(db);
  // The audit's sector, read by the inbox's filter with this exact expression (postgresLeadSearch below).
  await sql
    .raw(`CREATE INDEX leads_sector ON leads (((payload::jsonb ->> 'sector')), received_at, id)`)
    .execute(db);
}

/** PostgreSQL's share of the schema (migrations.ts). */
/**
 * « À traiter » in arrival order from an index of only the leads that owe an answer: PostgreSQL
 * plans with the bound values, so a query for these kinds and statuses (or fewer) uses it for its
 * page and its count. Without it the planner, which thinks such leads are ten times more common
 * than they are and spread over the year, walked every lead by arrival (65 ms at 100,000 leads,
 * docs/performance.md). The kinds and statuses are those of 2 Dec 2026 (ANSWERED_KINDS,
 * OPEN_WORK_STATUSES): a migration is a snapshot.
 */
async function indexAwaitingAnswer(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX leads_awaiting_answer ON leads (received_at, id)
    WHERE answered_at IS NULL AND kind IN ('contact', 'audit') AND work_status IN ('nouveau', 'en-cours')`.execute(
    db,
  );
}

export const postgresSchema: DialectSchema = {
  createLeadSearch,
  storePayloadFields,
  indexAwaitingAnswer,
};

function postgresMatches(words: readonly string[]) {
  // searchWords keeps only [a-z0-9]: each is a safe lexeme, taken as a prefix.
  const query = words.map((word) => `${word}:*`).join(' & ');
  return sql<boolean>`search_words @@ to_tsquery('simple'::regconfig, ${query})`;
}

/**
 * PostgreSQL: the payload's words and the audit's sector in the stored columns `search_words` (its
 * GIN index, POSTGRES_LEAD_DOCUMENT above) and `audit_sector`.
 */
export const postgresLeadSearch: LeadSearchDialect = {
  matches: postgresMatches,
  // Its planner already chooses between the GIN index and reading the leads in date order, from the
  // statistics ANALYZE keeps on the words.
  isCommon: () => sql<boolean>`false`,
  matchesOneByOne: postgresMatches,
  sector: sql<string | null>`audit_sector`,
};
