import { frenchNumericDateTime } from '../kernel/lead/french-date.ts';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Kysely } from 'kysely';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { createStore, MissingJournalError, openForReading } from '../wiring/create-store.ts';
import { migrationStates } from '../kernel/journal/migrations.ts';
import { backupSqlite } from '../kernel/journal/sqlite/sqlite-backup.ts';

/**
 * docs/deployment.md: `leadgate db migrate` brings the schema up to date and exits, for a deployment that
 * migrates before rolling nodes out. `serve` runs the same migrations at start anyway; on PostgreSQL
 * they hold an advisory lock, so running both, or several nodes at once, migrates exactly once.
 */
export async function migrateDatabase(config: Config, out: NodeJS.WritableStream): Promise<void> {
  const store = await createStore(config);
  await store.close();
  out.write(
    config.databaseUrl
      ? 'Schéma PostgreSQL à jour.\n'
      : `Schéma SQLite à jour (${config.dataDir}).\n`,
  );
}

async function reading<T>(
  config: Config,
  task: (opened: Awaited<ReturnType<typeof openForReading>>) => Promise<T>,
): Promise<T> {
  let opened;
  try {
    opened = await openForReading(config);
  } catch (error) {
    if (!(error instanceof MissingJournalError)) throw error;
    throw new InvalidConfigError(
      `DATA_DIR "${config.dataDir}" holds no journal (${error.message})`,
    );
  }
  try {
    return await task(opened);
  } finally {
    await opened.close();
  }
}

/** docs/operations.md: which migrations the database has, which this version would apply, and the backups kept. */
export async function databaseStatus(config: Config, out: NodeJS.WritableStream): Promise<number> {
  const states = await reading(config, ({ db, schema }) =>
    migrationStates(db as Kysely<unknown>, schema),
  );
  for (const state of states) {
    const when = state.appliedAt ? frenchNumericDateTime(state.appliedAt) : 'en attente';
    out.write(`${when.padEnd(24)}  ${state.name}\n`);
  }
  const pending = states.filter((state) => state.appliedAt === undefined).length;
  out.write(
    pending === 0
      ? 'Schéma à jour.\n'
      : `${pending} migration(s) en attente : \`leadgate db migrate\` ou le prochain démarrage les appliquera.\n`,
  );
  if (!config.databaseUrl) {
    const backups = join(config.dataDir, 'backups');
    let names: string[] = [];
    try {
      names = readdirSync(backups).filter((name) => name.endsWith('.sqlite'));
    } catch {
      // No backup taken yet.
    }
    for (const name of names.sort()) out.write(`sauvegarde  ${join(backups, name)}\n`);
  }
  return pending;
}

/**
 * docs/operations.md: a consistent copy of the SQLite journal while the server runs. PostgreSQL is
 * backed up with its own tool (pg_dump), which the message names.
 */
export async function backupDatabase(
  config: Config,
  target: string,
  out: NodeJS.WritableStream,
): Promise<boolean> {
  if (config.databaseUrl) {
    out.write(
      'DATABASE_URL désigne PostgreSQL : sauvegardez-le avec pg_dump --format=custom (docs/operations.md).\n',
    );
    return false;
  }
  const file = resolve(target);
  await reading(config, async ({ sqlite }) => backupSqlite(sqlite!, file));
  out.write(`Sauvegarde écrite : ${file}\n`);
  return true;
}
