import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely } from 'kysely';
import { migrateToLatest } from './migrations.ts';
import { assertReachable, postgresDatabase, type PostgresSettings } from './postgres-database.ts';
import { GroupCommitSqliteDialect, WalSync } from './sqlite-group-commit.ts';
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
  const { db, migrate } = settings.databaseUrl
    ? postgres(settings.databaseUrl, settings.database)
    : sqlite(join(settings.dataDir, 'leadgate.sqlite'));
  try {
    await migrate();
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new SqlStore(db, { skipLocked: settings.databaseUrl !== undefined });
}

interface Opened {
  db: Kysely<Database>;
  /** Brings the schema up to date, safely when other processes start on the same database at once. */
  migrate(): Promise<void>;
}

function postgres(connectionString: string, settings: PostgresSettings): Opened {
  const db = postgresDatabase(connectionString, settings);
  return {
    db,
    async migrate() {
      await assertReachable(db, connectionString);
      // Kysely's Migrator holds a PostgreSQL advisory lock: nodes starting together migrate once. The
      // others wait for it, and a migration may outlast a request, so this one connection has no
      // statement timeout.
      const migrator = postgresDatabase(connectionString, {
        ...settings,
        poolSize: 1,
        statementTimeoutMs: 0,
      });
      try {
        await migrateToLatest(migrator as Kysely<unknown>);
      } finally {
        await migrator.destroy();
      }
    },
  };
}

function sqlite(file: string): Opened {
  mkdirSync(join(file, '..'), { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers (CLI, readiness) run beside the writer. Each write resolves only after an
  // fdatasync of the WAL that followed its commit (group commit, sqlite-group-commit.ts), so an
  // acknowledged lead survives a crash or a power cut, as with FULL, without an fsync per commit.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  const dialect = new GroupCommitSqliteDialect({ database }, new WalSync(`${file}-wal`));
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    // Kysely takes no lock on SQLite: the write lock of BEGIN IMMEDIATE makes a second process (the
    // server and `leads replay` started together) wait, then find the migrations already applied.
    async migrate() {
      database.exec('BEGIN IMMEDIATE');
      try {
        await migrateToLatest(db as Kysely<unknown>);
        database.exec('COMMIT');
      } catch (error) {
        if (database.inTransaction) database.exec('ROLLBACK');
        throw error;
      }
    },
  };
}
