import type { Kysely } from 'kysely';
import type { WalSync } from './sqlite-group-commit.ts';
import type { SqliteTurnAccepts } from './sqlite-turn-accepts.ts';
import type { SqliteTurnConfirmations } from './sqlite-turn-confirmations.ts';
import type { SqliteTurnSettles } from './sqlite-turn-settles.ts';
import type { Database } from './tables.ts';

/**
 * SQLite: what one turn of the event loop's leads, settled steps and confirmation claims write, each
 * kind in one synchronous transaction of statements prepared once (docs/performance.md).
 */
export interface SqliteTurns {
  accepts: SqliteTurnAccepts;
  settles: SqliteTurnSettles;
  confirmations: SqliteTurnConfirmations;
  /** The group commit (sqlite-group-commit.ts): resolves once what was written is on disk. */
  wal: Pick<WalSync, 'flush'>;
}

/**
 * Runs one of SQLite's synchronous transactions holding the connection (Kysely's mutex, so that no
 * Kysely transaction is open on it), then waits for the group commit's sync without holding it, so
 * that the next turn's writes go on meanwhile.
 */
export async function inSqliteTurn<R>(
  db: Kysely<Database>,
  turns: SqliteTurns,
  write: (turns: SqliteTurns) => R,
): Promise<R> {
  const result = await db.connection().execute(async () => write(turns));
  await turns.wal.flush();
  return result;
}
