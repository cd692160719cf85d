import type { Config } from '../config.ts';
import { createStore } from '../store/create-store.ts';

/**
 * Issue 5: `leadgate db migrate` brings the schema up to date and exits, for a deployment that
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
