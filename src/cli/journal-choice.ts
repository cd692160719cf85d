import { existsSync } from 'node:fs';
import { InvalidConfigError, type Config } from '../kernel/config.ts';
import { sqliteFile } from '../wiring/create-store.ts';

/**
 * docs/operations.md ("Une commande sur le bon journal"): what a command does with the journal. Only
 * the service's own processes (`serve`, `dispatch`), the checks run before a first start (`check`,
 * which the compose file runs on a fresh volume, and `config check`) and `db migrate` may create one; every other command works on the journal
 * the service already has, so a command run from the checkout, or from cron without the service's
 * environment, is refused instead of acting on a new empty journal and saying « 0 livrée(s) ».
 */
export type JournalUse = 'none' | 'creates' | 'existing';

const CREATES = new Set(['serve', 'dispatch', 'check', 'config check', 'db migrate']);
const NONE = new Set(['build', 'config example', 'mail preview', 'webhooks test']);

/** `path`: the command's words, `team add`. */
export function journalUse(path: string): JournalUse {
  if (NONE.has(path)) return 'none';
  return CREATES.has(path) ? 'creates' : 'existing';
}

/**
 * Where the journal is, as the first line of every command says it: the SQLite file, or the
 * PostgreSQL server and database (never the user's password).
 */
export function journalLine(config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  if (!config.databaseUrl) return `journal : SQLite ${sqliteFile(config.dataDir)}`;
  const url = new URL(config.databaseUrl);
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  return `journal : PostgreSQL ${user}${url.host}${url.pathname}`;
}

/**
 * One line instead of a new journal where none should be created: a SQLite file that does not exist
 * for a command that needs the service's journal; or, for the commands that may create one, in
 * production without DATA_DIR or DATABASE_URL (the service's launcher always sets one: a missing one
 * means the command was not given the service's environment). `npm start` on a fresh clone creates
 * ./data/leadgate.sqlite as before.
 */
export function refuseWrongJournal(
  config: Config,
  env: Record<string, string | undefined>,
  path: string,
): void {
  const use = journalUse(path);
  if (use === 'none' || config.databaseUrl) return;
  const file = sqliteFile(config.dataDir);
  if (existsSync(file)) return;
  const howTo =
    'lancez-la avec l’environnement du service (docs/operations.md, « Une commande sur le bon journal »)';
  if (use === 'existing') {
    throw new InvalidConfigError(
      `aucun journal à ${file} (DATA_DIR) : « leadgate ${path} » travaille sur le journal du service et n’en crée pas ; ${howTo}`,
    );
  }
  if (config.production && !env.DATA_DIR?.trim()) {
    throw new InvalidConfigError(
      `NODE_ENV=production sans DATA_DIR ni DATABASE_URL : « leadgate ${path} » créerait un journal neuf à ${file} ; ${howTo}`,
    );
  }
}
