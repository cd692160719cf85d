import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOneLine, launch } from '../deploy/launch.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';
import { freePort } from '../helpers/postgres-cluster.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';

/*
 * docs/operations.md (« Upgrades and rollback »): a journal a newer leadgate migrated, opened by this
 * one (a rollback of the binary alone): one line naming the unknown migration and the backup to
 * restore, exit 2, the journal byte for byte as it was, and no bundle source on the terminal.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'leadgate-newer-journal-'));
let site: TestSite;
beforeAll(async () => {
  site = await buildTestSite('http://localhost:3000');
}, 60_000);
afterAll(() => {
  site?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

const checksum = (dir: string) =>
  readdirSync(dir)
    .sort()
    .map(
      (name) =>
        `${name}:${createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex')}`,
    )
    .join('\n');

describe('a journal newer than the binary', { timeout: 120_000 }, () => {
  it('serve: one line naming the migration and the backup, exit 2, nothing written', async () => {
    const dataDir = mkdtempSync(join(scratch, 'data-'));
    expect((await runLeadgate(['db', 'migrate'], { DATA_DIR: dataDir })).code).toBe(0);
    // What a newer version's migration leaves: its name in Kysely's table.
    const raw = new SQLite(join(dataDir, 'leadgate.sqlite'));
    raw
      .prepare('insert into kysely_migration (name, timestamp) values (?, ?)')
      .run('2099-01-01-100-from-the-future', new Date().toISOString());
    raw.close();
    const before = checksum(dataDir);

    const launched = launch(process.execPath, ['bin/leadgate.js', 'serve'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATA_DIR: dataDir,
        DIST_DIR: site.dir,
        SITE_URL: 'http://localhost:3000',
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
      },
    });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    expect(expectOneLine(launched.stderr())).toBe(
      `Journal plus récent que ce programme : ${join(dataDir, 'leadgate.sqlite')} porte la migration 2099-01-01-100-from-the-future, inconnue de cette version de leadgate (une version plus récente l’a écrite) ; rien n’a été écrit. Relancez la version plus récente, ou restaurez la sauvegarde prise avant la mise à jour (docs/operations.md, « Upgrades and rollback »)`,
    );
    expect(launched.stdout()).toBe('');
    expect(checksum(dataDir)).toBe(before);
    expect(existsSync(join(dataDir, 'backups'))).toBe(false);
  });
});
