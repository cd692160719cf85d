import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { migrateToLatest } from './migrations.ts';
import { assertReachable, postgresDatabase, type PostgresSettings } from './postgres-database.ts';
import { SqlStore } from './sql-store.ts';
import type { Store } from './store.ts';
import type { Database } from './tables.ts';

export interface StoreSettings {
  dataDir: string;
  databaseUrl: string | undefined;
  database: PostgresSettings;
}

/** The one place that picks the database: PostgreSQL when DATABASE_URL is set, else a SQLite file. */
export async function createStore(settings: StoreSettings): Promise<Store> {
  const db = settings.databaseUrl
    ? postgresDatabase(settings.databaseUrl, settings.database)
    : sqlite(join(settings.dataDir, 'leadgate.sqlite'));
  try {
    if (settings.databaseUrl) await assertReachable(db, settings.databaseUrl);
    // On PostgreSQL, Kysely's Migrator holds an advisory lock: nodes starting together migrate once.
    await migrateToLatest(db as Kysely<unknown>);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new SqlStore(db, { skipLocked: settings.databaseUrl !== undefined });
}

function sqlite(file: string): Kysely<Database> {
  mkdirSync(join(file, '..'), { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers (CLI, readiness) run beside the writer; FULL syncs each commit, so an
  // acknowledged lead survives a crash or a power cut, not only a process exit.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
}
