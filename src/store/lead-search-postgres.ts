import { sql } from 'kysely';
import type { LeadSearchDialect } from './lead-search.ts';
import { POSTGRES_LEAD_DOCUMENT } from './migrations.ts';

/** PostgreSQL: the GIN index over the payload's words (migrations.ts, POSTGRES_LEAD_DOCUMENT). */
export const postgresLeadSearch: LeadSearchDialect = {
  matches(words) {
    // searchWords keeps only [a-z0-9]: each is a safe lexeme, taken as a prefix.
    const query = words.map((word) => `${word}:*`).join(' & ');
    return sql<boolean>`${sql.raw(POSTGRES_LEAD_DOCUMENT)} @@ to_tsquery('simple'::regconfig, ${query})`;
  },
  sector: sql<string | null>`(payload::jsonb ->> 'sector')`,
};
