import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** Whether the run has a PostgreSQL server (started by postgres-global-setup.ts). */
export function hasPostgres(): boolean {
  return inject('postgresUrl') !== '';
}

/** Which database buildTestApp uses by default: LEADGATE_TEST_DIALECT=postgres runs the suite on PostgreSQL. */
export type TestDialect = 'sqlite' | 'postgres';
export const defaultTestDialect: TestDialect =
  process.env.LEADGATE_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database on the test server, so every test app starts isolated, as with SQLite. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresUrl');
  if (!adminUrl)
    throw new Error('no PostgreSQL server for this run (see postgres-global-setup.ts)');
  const name = `leadgate_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
