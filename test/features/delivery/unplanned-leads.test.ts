import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { replayLeads } from '../../../src/cli/delivery-commands.ts';
import { loadConfig } from '../../../src/kernel/config.ts';
import { postgresDatabase } from '../../../src/kernel/journal/postgres/postgres-database.ts';
import { migrations } from '../../../src/kernel/journal/migrations.ts';
import { postgresSchema } from '../../../src/kernel/journal/postgres/postgres-lead-search.ts';
import { sqliteSchema } from '../../../src/kernel/journal/sqlite/sqlite-lead-search.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import {
  createTestDatabase,
  defaultTestDialect,
  type TestDatabase,
} from '../../helpers/postgres-databases.ts';

/*
 * docs/delivery.md, « Leads from before delivery steps »: a lead still undelivered when migration
 * 2026-11-23-007-delivery-steps ran got no step, and the journal of its hand-offs was dropped. The
 * server's dispatcher plans its steps from its destinations and delivers it; a lead that was
 * delivered is left alone.
 */
const BEFORE_STEPS = '2026-11-23-006-confirmation-sends';

let dataDir: string;
let database: TestDatabase | undefined;
let harness: TestApp | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await database?.drop();
  database = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** A journal as version 006 left it, with these rows in `leads`. */
async function journalAt006(env: Record<string, string>, leads: Record<string, unknown>[]) {
  const config = loadConfig(env);
  const db = config.databaseUrl
    ? postgresDatabase(config.databaseUrl, config.database)
    : new Kysely<unknown>({
        dialect: new SqliteDialect({ database: new SQLite(join(dataDir, 'leadgate.sqlite')) }),
      });
  try {
    const migrator = new Migrator({
      db,
      provider: {
        getMigrations: async () => migrations(config.databaseUrl ? postgresSchema : sqliteSchema),
      },
    });
    const { error } = await migrator.migrateTo(BEFORE_STEPS);
    if (error) throw error;
    await (db as Kysely<{ leads: Record<string, unknown> }>)
      .insertInto('leads')
      .values(leads)
      .execute();
  } finally {
    await db.destroy();
  }
}

/** Accepted an hour before the upgrade. */
const AN_HOUR_AGO = new Date(Date.now() - 3_600_000).toISOString();

function legacyLead(id: string, kind: string, data: object, status: string) {
  const at = AN_HOUR_AGO;
  return {
    id,
    kind,
    email: (data as { EMAIL?: string; email?: string }).EMAIL ?? (data as { email: string }).email,
    payload: JSON.stringify(data),
    received_at: at,
    status,
    attempts: status === 'pending' ? 0 : 1,
    last_error: status === 'failed' ? 'smtp: 421 try later' : null,
    provider_answer: null,
    updated_at: at,
  };
}

describe(`leads journaled before delivery steps (${defaultTestDialect})`, () => {
  it('a pending and a failed lead from version 006 are delivered after the upgrade; a delivered one is not sent again', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-legacy-'));
    if (defaultTestDialect === 'postgres') database = await createTestDatabase();
    const env = { DATA_DIR: dataDir, ...(database && { DATABASE_URL: database.url }) };
    await journalAt006(env, [
      legacyLead('ancien-en-attente', 'contact', validContact, 'pending'),
      legacyLead(
        'ancien-en-echec',
        'subscribe',
        { email: 'lea@example.fr', firstName: 'Léa' },
        'failed',
      ),
      legacyLead(
        'ancien-livre',
        'contact',
        { ...validContact, EMAIL: 'livre@example.fr' },
        'delivered',
      ),
    ]);

    // `leads replay` does not guess their destinations (it may run without the server's settings).
    const replayed = await replayLeads(loadConfig(env), new PassThrough());
    expect(replayed).toEqual({ delivered: 0, failed: 2 });
    expect(existsSync(join(dataDir, 'outbox'))).toBe(false);

    harness = await buildTestApp({
      env: { ...env, DELIVERY: 'queued', MAIL_PROVIDER: 'outbox' },
      dispatch: true,
    });
    const journal = harness.store;
    await vi.waitFor(
      async () => {
        const statuses = (await journal.list()).map((entry) => [entry.lead.id, entry.status]);
        expect(statuses).toEqual([
          ['ancien-en-attente', 'delivered'],
          ['ancien-en-echec', 'delivered'],
          ['ancien-livre', 'delivered'],
        ]);
      },
      { timeout: 30_000, interval: 100 },
    );
    // Its steps as the intake plans them for its kind: a contact request is confirmed to its sender.
    const stepsOf = async (id: string) =>
      (await journal.deliveries.steps(id)).map((step) => [step.destination, step.status]);
    expect(await stepsOf('ancien-en-attente')).toEqual([
      ['agency-notification', 'done'],
      ['confirmation-email', 'done'],
    ]);
    expect(await stepsOf('ancien-en-echec')).toContainEqual(['agency-notification', 'done']);
    expect(await stepsOf('ancien-livre')).toEqual([]);
    const files = readdirSync(join(dataDir, 'outbox')).sort();
    expect(files.filter((file) => file.includes('-ancien-en-attente-'))).toEqual([
      expect.stringMatching(/-ancien-en-attente-confirmation\.eml$/),
      expect.stringMatching(/-ancien-en-attente-notification\.eml$/),
    ]);
    expect(files).toContainEqual(expect.stringMatching(/-ancien-en-echec-notification\.eml$/));
    expect(files.filter((file) => file.includes('-ancien-livre-'))).toEqual([]);
  });
});
