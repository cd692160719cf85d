import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../../src/config.ts';

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
