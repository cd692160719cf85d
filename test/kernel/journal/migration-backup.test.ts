import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseStatus } from '../../../src/cli/db-commands.ts';
import { loadConfig } from '../../../src/kernel/config.ts';
import { createStore } from '../../../src/wiring/create-store.ts';
import { migrations } from '../../../src/kernel/journal/migrations.ts';
import { sqliteSchema } from '../../../src/kernel/journal/sqlite/sqlite-lead-search.ts';

let dataDir: string;
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

function collect() {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}

const appliedIn = (file: string) => {
  const db = new SQLite(file, { readonly: true });
  try {
    return db.prepare('select name from kysely_migration order by name').pluck().all();
  } finally {
    db.close();
  }
};

/** A journal as the previous version left it: every migration but the last one applied. */
async function journalOfPreviousVersion(file: string): Promise<string> {
  const names = Object.keys(migrations(sqliteSchema)).sort();
  const previous = names.at(-2)!;
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: async () => migrations(sqliteSchema) },
  }).migrateTo(previous);
  await db.destroy();
  if (error) throw error;
  return names.at(-1)!;
}

describe('a schema change is preceded by a backup (docs/operations.md)', () => {
  it('upgrading a journal leaves a copy of the previous schema in DATA_DIR/backups; db status shows both states', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-migrate-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    const last = await journalOfPreviousVersion(join(dataDir, 'leadgate.sqlite'));

    const before = collect();
    expect(await databaseStatus(config, before.stream)).toBe(1);
    expect(before.text()).toMatch(new RegExp(`en attente +${last}\\n`));

    await (await createStore(config)).close();

    const backups = readdirSync(join(dataDir, 'backups'));
    expect(backups).toEqual([expect.stringMatching(new RegExp(`-before-${last}\\.sqlite$`))]);
    const backup = join(dataDir, 'backups', backups[0]!);
    expect(appliedIn(backup)).not.toContain(last);
    expect(appliedIn(join(dataDir, 'leadgate.sqlite'))).toContain(last);

    const after = collect();
    expect(await databaseStatus(config, after.stream)).toBe(0);
    expect(after.text()).toContain('Schéma à jour.');
    expect(after.text()).toContain(`sauvegarde  ${backup}`);
  });

  it('a new journal, or one already up to date, is not copied', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-migrate-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    await (await createStore(config)).close();
    await (await createStore(config)).close();
    expect(readdirSync(dataDir)).not.toContain('backups');
  });
});
