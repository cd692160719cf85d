import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { createStore } from '../../src/wiring/create-store.ts';
import {
  createTestDatabase,
  hasPostgres,
  type TestDatabase,
} from '../helpers/postgres-databases.ts';
import { acceptLead, subscribeLead } from '../helpers/test-stores.ts';
import { runLeadgate } from './leadgate-node.ts';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/migrate-on-signal.ts');
/**
 * docs/quality.md, « Waits sized for a loaded machine »: each child compiles the sources as it
 * starts, 10 to 25 s of CPU when the two cores are shared; three of them took over 30 s in a run.
 */
const CHILDREN_MS = 120_000;

/**
 * docs/deployment.md: nodes (or a node and a `leads replay`) starting together on an empty database migrate it
 * once: PostgreSQL through Kysely's advisory lock, SQLite through BEGIN IMMEDIATE. Without the SQLite
 * lock, three processes released together failed with `table "leads" already exists` in 2 runs of 3.
 */
describe.each(hasPostgres() ? ['sqlite', 'postgres'] : ['sqlite'])(
  'migrations on %s from several processes (docs/deployment.md)',
  (dialect) => {
    let dataDir: string;
    let database: TestDatabase | undefined;
    afterEach(async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
      database = undefined;
    });

    async function environment(): Promise<Record<string, string>> {
      dataDir = mkdtempSync(join(tmpdir(), 'leadgate-migrate-'));
      if (dialect === 'sqlite') return { DATA_DIR: dataDir };
      database = await createTestDatabase();
      return { DATA_DIR: dataDir, DATABASE_URL: database.url };
    }

    async function expectWorkingSchema(env: Record<string, string>) {
      const store = await createStore(loadConfig(env));
      try {
        const lead = subscribeLead('migre@example.fr');
        await acceptLead(store, lead);
        expect((await store.list()).map((entry) => entry.lead.id)).toEqual([lead.id]);
      } finally {
        await store.close();
      }
    }

    it(
      '`leadgate db migrate` brings an empty database up to date and says so',
      async () => {
        const env = await environment();
        const run = await runLeadgate(['db', 'migrate'], env);
        expect(run.errors).toBe('');
        expect(run.code).toBe(0);
        expect(run.output).toMatch(/^Schéma (SQLite|PostgreSQL) à jour/);
        await expectWorkingSchema(env);
      },
      CHILDREN_MS,
    );

    it(
      'three processes migrating at the same instant all succeed, and the schema is whole',
      async () => {
        const env = await environment();
        const outcomes = await releasedTogether(3, env);
        expect(outcomes).toEqual(['done', 'done', 'done']);
        await expectWorkingSchema(env);
      },
      CHILDREN_MS,
    );
  },
);

/** Starts `count` processes, waits until each has loaded, then tells them all "go" at once. */
async function releasedTogether(count: number, env: Record<string, string>): Promise<string[]> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  const outputs = children.map(() => '');
  const closed = children.map(
    (child, i) =>
      new Promise<void>((done) => {
        child.stdout.on('data', (chunk: Buffer) => (outputs[i] += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (outputs[i] += chunk.toString()));
        child.once('close', () => done());
      }),
  );
  while (!outputs.every((output) => output.includes('ready'))) {
    if (children.some((child) => child.exitCode !== null)) break;
    await new Promise((done) => setTimeout(done, 20));
  }
  for (const child of children) child.stdin.write('go\n');
  await Promise.all(closed);
  return outputs.map((output) => output.replace('ready\n', '').trim());
}
