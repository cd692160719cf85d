import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createStore } from '../../src/store/create-store.ts';
import {
  createTestDatabase,
  hasPostgres,
  type TestDatabase,
} from '../helpers/postgres-databases.ts';
import { subscribeLead } from '../helpers/test-stores.ts';
import { runLeadgate } from './leadgate-node.ts';

/**
 * Issue 5: nodes (or a node and a `leads replay`) starting together on an empty database migrate it
 * once: PostgreSQL through Kysely's advisory lock, SQLite through BEGIN IMMEDIATE.
 */
describe('leadgate db migrate in two processes at once (issue 5)', () => {
  let dataDir: string;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    await database?.drop();
    database = undefined;
  });

  async function migrateTwice(env: Record<string, string>) {
    const runs = await Promise.all([1, 2].map(() => runLeadgate(['db', 'migrate'], env)));
    for (const run of runs) {
      expect(run.errors).toBe('');
      expect(run.code).toBe(0);
      expect(run.output).toMatch(/^Schéma (SQLite|PostgreSQL) à jour/);
    }
    // The schema works: a lead goes in and comes out.
    const store = await createStore(loadConfig(env));
    try {
      const lead = subscribeLead('migre@example.fr');
      await store.record(lead);
      expect((await store.list()).map((entry) => entry.lead.id)).toEqual([lead.id]);
    } finally {
      await store.close();
    }
  }

  it('on one SQLite file', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-migrate-'));
    await migrateTwice({ DATA_DIR: dataDir });
  });

  it.skipIf(!hasPostgres())('on one PostgreSQL database', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-migrate-'));
    database = await createTestDatabase();
    await migrateTwice({ DATA_DIR: dataDir, DATABASE_URL: database.url });
  });
});
