import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../../src/kernel/config.ts';

export type Row = Record<string, unknown>;

/**
 * The database of a test app read with the driver alone, past leadgate's own code: what a test sees
 * here is what is really on disk (every table, every row), for either dialect.
 */
export async function readTables(config: Config): Promise<Record<string, Row[]>> {
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      const tables = await client.query<{ tablename: string }>(
        "select tablename from pg_tables where schemaname = 'public'",
      );
      const result: Record<string, Row[]> = {};
      for (const { tablename } of tables.rows) {
        result[tablename] = (await client.query<Row>(`select * from "${tablename}"`)).rows;
      }
      return result;
    } finally {
      await client.end();
    }
  }
  const database = new SQLite(join(config.dataDir, 'leadgate.sqlite'), { readonly: true });
  try {
    const tables = database
      .prepare("select name from sqlite_master where type = 'table'")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [name, database.prepare(`select * from "${name}"`).all() as Row[]]),
    );
  } finally {
    database.close();
  }
}

/**
 * Runs one statement with the driver alone (`?` placeholders on both dialects), for a test that
 * moves a recorded date into the past instead of waiting for it.
 */
export async function runStatement(
  config: Config,
  sql: string,
  parameters: readonly unknown[] = [],
): Promise<void> {
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      let index = 0;
      await client.query(
        sql.replace(/\?/g, () => `$${++index}`),
        [...parameters],
      );
    } finally {
      await client.end();
    }
    return;
  }
  const database = new SQLite(join(config.dataDir, 'leadgate.sqlite'));
  try {
    database.prepare(sql).run(...parameters);
  } finally {
    database.close();
  }
}

/** Every confirmation claimed so far (docs/reliability.md, the per-mailbox cap) dated `ms` earlier. */
export async function rewindConfirmationSends(config: Config, ms: number): Promise<void> {
  const rows = (await readTables(config)).confirmation_sends ?? [];
  for (const row of rows) {
    const earlier = new Date(new Date(String(row.sent_at)).getTime() - ms).toISOString();
    await runStatement(
      config,
      'update confirmation_sends set sent_at = ? where kind = ? and email = ?',
      [earlier, row.kind, row.email],
    );
  }
}
