import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct statements kept; `IN (?, ?…)` lists of different lengths are distinct statements. */
const CAPACITY = 256;

/**
 * Kysely prepares every statement again each time it runs it; on the accept path that was about a
 * third of the journal's CPU (docs/performance.md). better-sqlite3 statements can run again with new
 * parameters, so the last CAPACITY ones are kept by SQL text (SQLite re-prepares one by itself after
 * a schema change). A statement still busy (an iterator left open) is never handed out twice.
 */
export function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql) {
      const cached = statements.get(sql);
      if (cached && !cached.busy) {
        // Map order is insertion order: moving a hit to the end makes the first key the least recent.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      if (cached) return statement;
      statements.set(sql, statement);
      if (statements.size > CAPACITY) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
