import { sql } from 'kysely';
import type { LeadSearchDialect } from './lead-search.ts';

/** SQLite: the FTS5 index fed by triggers (migrations.ts, "2026-11-26-600-workspace-leads"). */
export const sqliteLeadSearch: LeadSearchDialect = {
  matches(words) {
    // Each word quoted (searchWords keeps only [a-z0-9]) and taken as a prefix; FTS5 ANDs them.
    const query = words.map((word) => `"${word}"*`).join(' ');
    return sql<boolean>`leads.id IN (SELECT r.lead_ref FROM lead_search_rows r WHERE r.row_id IN (SELECT rowid FROM lead_search WHERE lead_search MATCH ${query}))`;
  },
  sector: sql<string | null>`json_extract(payload, '$.sector')`,
};
