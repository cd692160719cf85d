import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import {
  migrateToLatest,
  migrationStates,
  NewerJournalError,
  unknownMigrations,
  type DialectSchema,
} from '../kernel/journal/migrations.ts';
import type { JournalWrites } from '../kernel/journal/journal-writes.ts';
import {
  assertReachable,
  postgresDatabase,
  type PostgresSettings,
} from '../kernel/journal/postgres/postgres-database.ts';
import { PostgresJournalWrites } from '../kernel/journal/postgres/postgres-journal-writes.ts';
import { backupSqlite, preMigrationBackupFile } from '../kernel/journal/sqlite/sqlite-backup.ts';
import { GroupCommitSqliteDialect, WalSync } from '../kernel/journal/sqlite/sqlite-group-commit.ts';
import { SqliteJournalWrites } from '../kernel/journal/sqlite/sqlite-journal-writes.ts';
import { withStatementCache } from '../kernel/journal/sqlite/sqlite-statement-cache.ts';
import { storeConsentWordings } from '../kernel/journal/sql-consent.ts';
import { SqlStore } from './sql-store.ts';
import {
  postgresLeadSearch,
  postgresSchema,
} from '../kernel/journal/postgres/postgres-lead-search.ts';
import { sqliteLeadSearch, sqliteSchema } from '../kernel/journal/sqlite/sqlite-lead-search.ts';
import type { LeadSearchDialect } from '../kernel/journal/lead-search.ts';
import type { Store } from '../kernel/journal/store.ts';
import type { Database } from '../kernel/journal/tables.ts';

export interface StoreSettings {
  dataDir: string;
  databaseUrl: string | undefined;
  database: PostgresSettings;
  /** Masked literally in every provider text the journal stores (Config.secrets). */
  secrets?: readonly string[];
}

export function sqliteFile(dataDir: string): string {
  return join(dataDir, 'leadgate.sqlite');
}

/** No journal where DATA_DIR points: a read must say so, not create an empty one. */
export class MissingJournalError extends Error {}

export interface ReadOnlyDatabase {
  db: Kysely<Database>;
  /** The SQLite connection (for its online backup), undefined on PostgreSQL. */
  sqlite: SQLite.Database | undefined;
  /** This database's share of the schema, for reading which migrations are applied. */
  schema: DialectSchema;
  close(): Promise<void>;
}

/** Which database holds the journal, as an operator's message names it. */
export function journalName(settings: Pick<StoreSettings, 'databaseUrl'>): 'SQLite' | 'PostgreSQL' {
  return settings.databaseUrl ? 'PostgreSQL' : 'SQLite';
}

/** For commands that only read: a mistyped DATA_DIR must not create an empty journal. */
export function assertJournalExists(
  settings: Pick<StoreSettings, 'dataDir' | 'databaseUrl'>,
): void {
  if (settings.databaseUrl) return;
  const file = sqliteFile(settings.dataDir);
  if (!existsSync(file)) throw new MissingJournalError(`${file} does not exist`);
}

/** Opens the journal without migrating or creating it, for commands that only look (db status, backup). */
export async function openForReading(settings: StoreSettings): Promise<ReadOnlyDatabase> {
  if (settings.databaseUrl) {
    const db = postgresDatabase(settings.databaseUrl, settings.database);
    await assertReachable(db, settings.databaseUrl);
    return { db, sqlite: undefined, schema: postgresSchema, close: () => db.destroy() };
  }
  assertJournalExists(settings);
  return openSqliteForReading(sqliteFile(settings.dataDir));
}

/**
 * Another journal, read-only (`leads import`, docs/operations.md « Restore »): a PostgreSQL URL, a
 * SQLite file, or the directory that holds one as DATA_DIR does.
 */
export async function openOtherJournal(
  from: string,
  database: PostgresSettings,
): Promise<ReadOnlyDatabase> {
  if (/^postgres(ql)?:\/\//.test(from)) {
    return openForReading({ dataDir: '', databaseUrl: from, database });
  }
  const path = resolve(from);
  const file = existsSync(path) && statSync(path).isDirectory() ? sqliteFile(path) : path;
  if (!existsSync(file)) throw new MissingJournalError(`${file} does not exist`);
  return openSqliteForReading(file);
}

/** One SQLite journal file, read-only (a backup, a journal moved aside: `leads import`). */
export function openSqliteForReading(file: string): ReadOnlyDatabase {
  const database = new SQLite(file, { readonly: true, fileMustExist: true });
  database.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return { db, sqlite: database, schema: sqliteSchema, close: () => db.destroy() };
}

/** The one place that picks the database: PostgreSQL when DATABASE_URL is set, else a SQLite file. */
export async function createStore(settings: StoreSettings): Promise<Store> {
  const { db, migrate, writes, search } = settings.databaseUrl
    ? postgres(settings.databaseUrl, settings.database)
    : sqlite(settings.dataDir);
  try {
    await migrate();
    await storeConsentWordings(db, new Date());
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return new SqlStore(db, writes(settings.secrets ?? []), search, settings.secrets ?? []);
}

interface Opened {
  db: Kysely<Database>;
  /** Brings the schema up to date, safely when other processes start on the same database at once. */
  migrate(): Promise<void>;
  /**
   * The database's adapter for the journal's writes (journal-writes.ts), made once the schema is up
   * to date (SQLite prepares its statements then). `secrets`: what a provider's error may quote.
   */
  writes: (secrets: readonly string[]) => JournalWrites;
  /** The inbox's full-text match and payload fields, as this database's schema holds them. */
  search: LeadSearchDialect;
}

function postgres(connectionString: string, settings: PostgresSettings): Opened {
  const db = postgresDatabase(connectionString, settings);
  return {
    db,
    writes: (secrets) => new PostgresJournalWrites(db, secrets),
    search: postgresLeadSearch,
    async migrate() {
      await assertReachable(db, connectionString);
      await refuseNewerJournal(
        db,
        postgresSchema,
        'sur PostgreSQL',
        'la dernière sauvegarde pg_dump prise avant la mise à jour',
      );
      // Kysely's Migrator holds a PostgreSQL advisory lock: nodes starting together migrate once. The
      // others wait for it, and a migration may outlast a request, so this one connection has no
      // statement timeout.
      const migrator = postgresDatabase(connectionString, {
        ...settings,
        poolSize: 1,
        statementTimeoutMs: 0,
      });
      try {
        await migrateToLatest(migrator as Kysely<unknown>, postgresSchema);
      } finally {
        await migrator.destroy();
      }
    },
  };
}

/**
 * Turns the journal to WAL. Processes opening a new journal together race for it: one whose read of
 * the file began before another's switch cannot upgrade it to the write the switch needs, and SQLite
 * answers SQLITE_BUSY at once rather than wait (waiting there could deadlock). Tried again, the
 * switch starts afresh and waits its busy timeout like any write.
 */
function walMode(database: SQLite.Database, attempts = 5): void {
  for (let attempt = 1; ; attempt += 1) {
    try {
      database.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || attempt === attempts) throw error;
    }
  }
}

function sqlite(dataDir: string): Opened {
  const file = sqliteFile(dataDir);
  mkdirSync(dataDir, { recursive: true });
  const database = new SQLite(file);
  // WAL lets readers (CLI, readiness) run beside the writer. Each write resolves only after an
  // fdatasync of the WAL that followed its commit (group commit, sqlite-group-commit.ts), so an
  // acknowledged lead survives a crash or a power cut, as with FULL, without an fsync per commit.
  database.pragma('busy_timeout = 5000');
  walMode(database);
  database.pragma('synchronous = NORMAL');
  // docs/consent.md, "Erasure": a deleted row's bytes are overwritten with zeros, in its page and in
  // freed pages, instead of lingering until the page is reused (docs/performance.md: the cost).
  database.pragma('secure_delete = ON');
  const wal = new WalSync(`${file}-wal`);
  const dialect = new GroupCommitSqliteDialect({ database: withStatementCache(database) }, wal);
  const db = new Kysely<Database>({ dialect });
  return {
    db,
    writes: (secrets) => new SqliteJournalWrites(db, database, wal, secrets),
    search: sqliteLeadSearch,
    // Kysely takes no lock on SQLite: the write lock of BEGIN IMMEDIATE makes a second process (the
    // server and `leads replay` started together) wait, then find the migrations already applied.
    async migrate() {
      await refuseNewerJournal(db, sqliteSchema, `${file}`, newestBackup(dataDir));
      await backupBeforeSchemaChange(database, db, dataDir);
      database.exec('BEGIN IMMEDIATE');
      try {
        await migrateToLatest(db as Kysely<unknown>, sqliteSchema);
        database.exec('COMMIT');
      } catch (error) {
        if (database.inTransaction) database.exec('ROLLBACK');
        throw error;
      }
    },
  };
}

/**
 * docs/operations.md (« Upgrades and rollback »): one line naming the migration this version does not
 * know and the backup to restore, before anything is written (no backup, no migration).
 */
async function refuseNewerJournal(
  db: Kysely<Database>,
  schema: DialectSchema,
  where: string,
  backup: string | undefined,
): Promise<void> {
  const unknown = await unknownMigrations(db as Kysely<unknown>, schema);
  if (unknown.length === 0) return;
  throw new NewerJournalError(
    `Journal plus récent que ce programme : ${where} porte la migration ${unknown.join(', ')}, inconnue de cette version de leadgate (une version plus récente l’a écrite) ; rien n’a été écrit. Relancez la version plus récente, ou restaurez ${backup ?? 'la sauvegarde prise avant la mise à jour'} (docs/operations.md, « Upgrades and rollback »)`,
  );
}

/** The newest copy taken before a migration, in DATA_DIR/backups. */
function newestBackup(dataDir: string): string | undefined {
  const dir = join(dataDir, 'backups');
  if (!existsSync(dir)) return undefined;
  const names = readdirSync(dir).filter((name) => name.endsWith('.sqlite'));
  return names.length > 0 ? join(dir, names.sort().at(-1)!) : undefined;
}

/**
 * docs/operations.md: a journal that already holds data is copied before a migration changes its
 * schema, so a failed upgrade can be rolled back to the file the previous version used. A new
 * journal has nothing to lose. Two processes starting together may both copy: harmless.
 */
async function backupBeforeSchemaChange(
  database: SQLite.Database,
  db: Kysely<Database>,
  dataDir: string,
): Promise<void> {
  const states = await migrationStates(db as Kysely<unknown>, sqliteSchema);
  const pending = states.find((state) => state.appliedAt === undefined);
  if (!pending || !states.some((state) => state.appliedAt !== undefined)) return;
  await backupSqlite(database, preMigrationBackupFile(dataDir, pending.name, new Date()));
}
