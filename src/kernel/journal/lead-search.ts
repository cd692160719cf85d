import type { AliasableExpression, Expression, SqlBool } from 'kysely';

/**
 * What differs between the dialects in the inbox's queries
 * (docs/workspace.md, "La boîte de réception"): the full-text match and reading a field of the JSON
 * payload. One implementation per dialect, chosen by createStore.
 */
export interface LeadSearchDialect {
  /** True for a lead whose words include each of `words` as a prefix. */
  matches(words: readonly string[]): Expression<SqlBool>;
  /**
   * True when at least `share` of the leads match `words`: reading the leads in a page's order and
   * testing each (`matchesOneByOne`) then fills the page sooner than reading every match. Always
   * false where the database's planner makes that choice itself (docs/workspace.md, "Performances").
   */
  isCommon(words: readonly string[], share: number): AliasableExpression<SqlBool>;
  /** The test of `matches`, made on one lead at a time, for a query that reads the leads in order. */
  matchesOneByOne(words: readonly string[]): Expression<SqlBool>;
  /** An audit's sector (spec 2.3), what its index is built on (migrations.ts). */
  readonly sector: Expression<string | null>;
}

const MAX_WORDS = 8;

/**
 * The words to look for: accents removed, lower-cased, split on anything that is not a letter or a
 * digit (so "marie.dupont@" finds the address by its parts), as both indexes split the text.
 */
export function searchWords(text: string): string[] {
  const words = text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => word.slice(0, 40));
  return [...new Set(words)].slice(0, MAX_WORDS);
}
