import { sql } from 'kysely';
import type { LeadSearchDialect } from './lead-search.ts';

/**
 * PostgreSQL: the payload's words and the audit's sector in the stored columns `search_words` (its
 * GIN index, migrations.ts, POSTGRES_LEAD_DOCUMENT) and `audit_sector`.
 */
export const postgresLeadSearch: LeadSearchDialect = {
  matches(words) {
    // searchWords keeps only [a-z0-9]: each is a safe lexeme, taken as a prefix.
    const query = words.map((word) => `${word}:*`).join(' & ');
    return sql<boolean>`search_words @@ to_tsquery('simple'::regconfig, ${query})`;
  },
  sector: sql<string | null>`audit_sector`,
};
