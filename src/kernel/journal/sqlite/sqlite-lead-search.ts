import { sql, type Kysely } from 'kysely';
import type { LeadSearchDialect } from '../lead-search.ts';
import type { DialectSchema } from '../migrations.ts';

/**
 * SQLite: an FTS5 index without a copy of the text (contentless, deletable), fed and emptied by
 * triggers on `leads`, so the intake, erasure and retention need no code of their own. Its rows are
 * numbered through lead_search_rows, as a VACUUM may renumber the rowids of `leads`.
 */
async function createLeadSearch(db: Kysely<unknown>): Promise<void> {
  const words = (row: string) =>
    `(SELECT group_concat(value, ' ') FROM json_tree(${row}.payload) WHERE type = 'text')`;
  for (const statement of [
    `CREATE TABLE lead_search_rows (row_id INTEGER PRIMARY KEY, lead_ref TEXT NOT NULL UNIQUE)`,
    `CREATE VIRTUAL TABLE lead_search USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2')`,
    `CREATE TRIGGER leads_search_insert AFTER INSERT ON leads BEGIN
       INSERT INTO lead_search_rows (lead_ref) VALUES (new.id);
       INSERT INTO lead_search (rowid, body) VALUES (last_insert_rowid(), ${words('new')});
     END`,
    `CREATE TRIGGER leads_search_delete AFTER DELETE ON leads BEGIN
       DELETE FROM lead_search WHERE rowid = (SELECT row_id FROM lead_search_rows WHERE lead_ref = old.id);
       DELETE FROM lead_search_rows WHERE lead_ref = old.id;
     END`,
    // The audit's sector, read by the inbox's filter with this exact expression (sqliteLeadSearch below).
    `CREATE INDEX leads_sector ON leads (json_extract(payload, '$.sector'), received_at, id)`,
    `INSERT INTO lead_search_rows (lead_ref) SELECT id FROM leads ORDER BY received_at`,
    `INSERT INTO lead_search (rowid, body)
       SELECT r.row_id, ${words('l')} FROM lead_search_rows r JOIN leads l ON l.id = r.lead_ref`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

/** SQLite's share of the schema (migrations.ts): the payload is read where it is. */
export const sqliteSchema: DialectSchema = {
  createLeadSearch,
  storePayloadFields: async () => {},
  // Every column « À traiter » filters on, in a partial index on the unanswered leads: its count
  // (in every workspace page's navigation) reads the index alone, skipping the newsletter sign-ups
  // (never answered) there rather than row by row; SQLite cannot match a partial index's predicate
  // to the query's bound parameters, so the predicate stays `answered_at IS NULL`.
  indexAwaitingAnswer: async (db) => {
    await db.schema
      .createIndex('leads_awaiting_answer')
      .on('leads')
      .columns(['kind', 'work_status', 'status', 'received_at', 'id'])
      .where(sql.ref('answered_at'), 'is', null)
      .execute();
  },
};

/** Each word quoted (searchWords keeps only [a-z0-9]) and taken as a prefix; FTS5 ANDs them. */
const ftsQuery = (words: readonly string[]) => words.map((word) => `"${word}"*`).join(' ');

/** SQLite: the FTS5 index fed by triggers (migrations.ts, "2026-11-26-600-workspace-leads"). */
export const sqliteLeadSearch: LeadSearchDialect = {
  matches(words) {
    return sql<boolean>`leads.id IN (SELECT r.lead_ref FROM lead_search_rows r WHERE r.row_id IN (SELECT rowid FROM lead_search WHERE lead_search MATCH ${ftsQuery(words)}))`;
  },
  isCommon(words, share) {
    // SQLite's planner cannot tell a common word from a rare one (FTS5 gives it no count): the
    // index's matches are counted, up to the share of the rows it has ever numbered.
    return sql<boolean>`(
      WITH wanted (matches) AS (
        SELECT max(1, CAST(coalesce(max(row_id), 0) * ${share} AS INTEGER)) FROM lead_search_rows)
      SELECT count(*) >= (SELECT matches FROM wanted)
      FROM (SELECT rowid FROM lead_search WHERE lead_search MATCH ${ftsQuery(words)}
            LIMIT (SELECT matches FROM wanted)))`;
  },
  matchesOneByOne(words) {
    // The lead's row number looked up and tested against the matches, read once into a set, rather
    // than every match turned into its lead first as `matches` does.
    return sql<boolean>`(SELECT r.row_id FROM lead_search_rows r WHERE r.lead_ref = leads.id) IN (SELECT rowid FROM lead_search WHERE lead_search MATCH ${ftsQuery(words)})`;
  },
  sector: sql<string | null>`json_extract(payload, '$.sector')`,
};
