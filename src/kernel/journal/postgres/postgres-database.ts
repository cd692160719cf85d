import { Kysely, PostgresDialect, sql } from 'kysely';
import type { Pool } from 'pg';
import type { Database } from '../tables.ts';

export interface PostgresSettings {
  poolSize: number;
  /** 0 turns the timeout off (migrations only). */
  statementTimeoutMs: number;
  connectTimeoutMs: number;
}

/** The database could not be reached at start: the server says so in one line and exits (docs/deployment.md). */
export class DatabaseUnavailableError extends Error {
  override readonly name = 'DatabaseUnavailableError';
}

/**
 * One pool per node (docs/deployment.md). Every limit is set, so an unreachable or stuck database turns into an
 * error within seconds (a 500 `server_error` for the caller) instead of requests piling up.
 */
export function postgresDatabase(connectionString: string, settings: PostgresSettings) {
  // Loaded when the first query needs the pool: a SQLite install never pays for pg at start
  // (docs/performance.md, "What a start loads"). pg is CommonJS: its dynamic import has only `default`.
  const pool = async (): Promise<Pool> => {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString,
      max: settings.poolSize,
      // Covers both opening a connection and waiting for a free one in the pool.
      connectionTimeoutMillis: settings.connectTimeoutMs,
      statement_timeout: settings.statementTimeoutMs,
      // A transaction left open by a crashed request must not hold row locks for ever.
      idle_in_transaction_session_timeout: 10 * settings.statementTimeoutMs || 60_000,
      application_name: 'leadgate',
      keepAlive: true,
    });
    // A connection dropped by the server (restart, failover) emits 'error' on its client, checked
    // out or idle; without a listener Node would crash the whole process. The pool discards a broken
    // client on release and the next query opens a new one, so the node only has to say so.
    pool.on('connect', (client) => {
      client.on('error', (error) => {
        process.stderr.write(`leadgate: connexion PostgreSQL perdue (${error.message})\n`);
      });
    });
    // The pool re-emits an idle client's error, already reported by the listener above.
    pool.on('error', () => {});
    return pool;
  };
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Fails fast with a message an operator can act on, before migrations try and fail less clearly. */
export async function assertReachable(db: Kysely<Database>, connectionString: string) {
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    const reason = error instanceof Error ? error.message || error.name : String(error);
    throw new DatabaseUnavailableError(
      `PostgreSQL injoignable (${redactedUrl(connectionString)}) : ${reason}`,
      { cause: error },
    );
  }
}

/** The URL without its password, fit for a log line. */
export function redactedUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'DATABASE_URL illisible';
  }
}
