import { mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type SQLite from 'better-sqlite3';

/**
 * SQLite's online backup API (better-sqlite3's `backup`): a consistent copy of the database as one
 * transaction saw it, WAL included, taken while the server keeps writing. A plain `cp` of the file
 * misses whatever still sits in the WAL. Written beside the target then renamed, so a file at
 * `target` is always a whole backup.
 */
export async function backupSqlite(source: SQLite.Database, target: string): Promise<void> {
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  try {
    // Every page in one step: one read snapshot (WAL readers never block the writer), so writes
    // from the server meanwhile cannot restart the copy again and again as they would between steps.
    await source.backup(partial, { progress: () => 0x7fffffff });
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

/** docs/operations.md: where `serve` and `db migrate` put the copy taken before a schema change. */
export function preMigrationBackupFile(dataDir: string, firstPending: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return join(dataDir, 'backups', `leadgate-${stamp}-before-${firstPending}.sqlite`);
}
