import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Provider } from '../../src/features/delivery/provider.ts';
import { servedMailIdentity } from '../../src/features/site/served-identity.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { acceptedContact } from '../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { postgresBinDir } from '../helpers/postgres-cluster.ts';
import {
  createTestDatabase,
  defaultTestDialect,
  type TestDatabase,
} from '../helpers/postgres-databases.ts';

/*
 * docs/operations.md, « Restore », PostgreSQL: a `pg_dump` taken while leads keep coming and are
 * delivered, more leads after it (some delivered, some not yet), every node stopped, the database
 * renamed aside and the dump restored in its place, then `leadgate leads import postgres://…/<aside>`
 * before the nodes start again: every acknowledged lead is in the journal and delivered (0
 * stranded), and no lead's notification reached the agency twice over both lives (0 duplicates),
 * counted at the provider. The PostgreSQL project runs it (vitest.config.ts), on the run's server.
 */
const PG_BIN = postgresBinDir();
const run = promisify(execFile);
let scratch: string;
let database: TestDatabase;
let node: TestApp | undefined;

/** Notifications handed to the provider, per lead, over every life of the service. */
const notified = new Map<string, number>();

function counted(provider: Provider): Provider {
  return {
    ...provider,
    destinations: provider.destinations.map((destination) => ({
      ...destination,
      deliver: async (lead, signal) => {
        if (destination.name === 'agency-notification') {
          notified.set(lead.id, (notified.get(lead.id) ?? 0) + 1);
        }
        return destination.deliver(lead, signal);
      },
    })),
    alertAgency: (alert, signal) => provider.alertAgency(alert, signal),
    close: () => provider.close(),
  };
}

const env = () => ({
  DATABASE_URL: database.url,
  DATA_DIR: join(scratch, 'data'),
  DELIVERY: 'queued',
  MAIL_PROVIDER: 'outbox',
  // Every confirmation goes to example.fr: none is held back by the per-domain cap.
  CONFIRMATION_DOMAIN_PER_HOUR: '0',
});

/** A node of the service on the database, its dispatcher delivering as `serve`'s does. */
async function serve(): Promise<TestApp> {
  node = await buildTestApp({
    // The database is this test's (env), not a fresh one per node.
    dialect: 'sqlite',
    env: env(),
    dispatch: true,
    dispatcherTimings: { pollMs: 20 },
    provider: (config, journal) => counted(createProvider(config, journal, servedMailIdentity)),
  });
  return node;
}

async function stop(): Promise<void> {
  await node?.close();
  node = undefined;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-import-pg-'));
  database = await createTestDatabase();
});
afterAll(async () => {
  await stop();
  const aside = `${new URL(database.url).pathname.slice(1)}_aside`;
  await admin(`DROP DATABASE IF EXISTS ${aside} WITH (FORCE)`);
  await database.drop();
  rmSync(scratch, { recursive: true, force: true });
});

describe.runIf(defaultTestDialect === 'postgres' && PG_BIN)(
  'leadgate leads import after a PostgreSQL restore under traffic (docs/operations.md, « Restore »)',
  () => {
    it('0 stranded leads and 0 duplicate notifications', { timeout: 180_000 }, async () => {
      const accepted: string[] = [];
      const accept = async (app: TestApp, names: string[]) => {
        for (const id of await Promise.all(
          names.map((name) => acceptedContact(app.app, `${name}@example.fr`)),
        )) {
          accepted.push(id);
        }
      };
      const names = (prefix: string, count: number) =>
        Array.from({ length: count }, (_, index) => `${prefix}-${index}`);

      const first = await serve();
      await accept(first, names('avant', 10));
      // The dump is taken while leads keep coming and the dispatcher delivers.
      const dump = join(scratch, 'leadgate.dump');
      const dumped = run(join(PG_BIN!, 'pg_dump'), [
        '--format=custom',
        '--exclude-table-data=rate_limit_hits',
        `--file=${dump}`,
        database.url,
      ]);
      await Promise.all([accept(first, names('pendant', 10)), dumped]);
      await accept(first, names('apres', 10));
      const delivered = async () =>
        (await first.store.list()).every((entry) => entry.status === 'delivered');
      await expect.poll(delivered).toBe(true);
      // The last ones are still waiting when the node stops.
      await first.app.dispatcher.stop();
      await accept(first, names('en-attente', 5));
      await stop();

      // The restore, as docs/operations.md says: the database renamed aside, the dump in its place.
      const name = new URL(database.url).pathname.slice(1);
      await admin(`ALTER DATABASE ${name} RENAME TO ${name}_aside`);
      await admin(`CREATE DATABASE ${name}`);
      await run(join(PG_BIN!, 'pg_restore'), [
        '--clean',
        '--if-exists',
        `--dbname=${database.url}`,
        dump,
      ]);
      const aside = new URL(database.url);
      aside.pathname = `/${name}_aside`;

      const imported = await runLeadgate(['leads', 'import', aside.toString()], env());
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.journal).toMatch(/^journal : PostgreSQL /);
      expect(imported.stdout).toMatch(
        / [1-9]\d* demande\(s\) absente\(s\) de ce journal, [1-9]\d* envoi\(s\) déjà faits/,
      );

      const second = await serve();
      const journaled = async () => (await second.store.list()).map((entry) => entry.lead.id);
      await expect
        .poll(
          async () =>
            (await second.store.list()).filter((entry) => entry.status !== 'delivered').length,
        )
        .toBe(0);
      expect((await journaled()).sort()).toEqual([...accepted].sort());
      expect([...notified.keys()].sort()).toEqual([...accepted].sort());
      expect([...notified.entries()].filter(([, count]) => count !== 1)).toEqual([]);
    });
  },
);
