import { mkdtempSync, rmSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  GroupCommitSqliteDialect,
  WalSync,
} from '../../../src/kernel/journal/sqlite/sqlite-group-commit.ts';

interface Db {
  items: { id: number };
  provider_budgets: { key: string; recent_calls: string };
}

/**
 * docs/performance.md: the journal runs SQLite with synchronous = NORMAL and syncs the WAL itself, in groups. The
 * promise kept from FULL: a write resolves only once a sync that began after its commit has ended.
 */
describe('SQLite group commit (a lead acknowledged is on disk, one sync for many, docs/performance.md)', () => {
  let dir: string;
  let db: Kysely<Db> | undefined;
  afterEach(async () => {
    await db?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A real database and real fdatasync calls; each sync notes which rows were committed when it began. */
  async function open() {
    dir = mkdtempSync(join(tmpdir(), 'leadgate-group-commit-'));
    const file = join(dir, 'test.sqlite');
    const database = new SQLite(file);
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = NORMAL');
    const reader = new SQLite(file, { readonly: true });
    const durable = new Set<number>();
    const syncs = { count: 0 };
    const sync = async (handle: FileHandle) => {
      syncs.count++;
      const committed = reader.prepare('SELECT id FROM items').pluck().all() as number[];
      await handle.datasync();
      for (const id of committed) durable.add(id);
    };
    db = new Kysely<Db>({
      dialect: new GroupCommitSqliteDialect({ database }, new WalSync(`${file}-wal`, sync)),
    });
    await sql`CREATE TABLE items (id INTEGER PRIMARY KEY)`.execute(db);
    await sql`CREATE TABLE provider_budgets (key TEXT PRIMARY KEY, recent_calls TEXT)`.execute(db);
    return { db, durable, syncs };
  }

  it('resolves each write after a sync that began once it was committed, with fewer syncs than writes', async () => {
    const { db, durable, syncs } = await open();
    const before = syncs.count;
    const notDurableWhenResolved: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, id) => {
        await db.insertInto('items').values({ id }).execute();
        if (!durable.has(id)) notDurableWhenResolved.push(id);
      }),
    );
    expect(notDurableWhenResolved).toEqual([]);
    expect(syncs.count - before).toBeGreaterThan(0);
    expect(syncs.count - before).toBeLessThan(50);
  });

  it('resolves a transaction after a sync that began once it was committed; reads never sync', async () => {
    const { db, durable, syncs } = await open();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ id: 1 }).execute();
      await trx.insertInto('items').values({ id: 2 }).execute();
    });
    expect([durable.has(1), durable.has(2)]).toEqual([true, true]);
    const after = syncs.count;
    await db.selectFrom('items').selectAll().execute();
    expect(syncs.count).toBe(after);
  });

  it('waits for no sync after an insert, update or delete that changed no row', async () => {
    const { db, syncs } = await open();
    await db.insertInto('items').values({ id: 1 }).execute();
    const after = syncs.count;
    await db.updateTable('items').set({ id: 3 }).where('id', '=', 2).execute();
    await db.updateTable('items').set({ id: 3 }).where('id', '=', 2).returningAll().execute();
    await db.deleteFrom('items').where('id', '=', 2).execute();
    await db
      .insertInto('items')
      .values({ id: 1 })
      .onConflict((oc) => oc.doNothing())
      .execute();
    expect(syncs.count).toBe(after);
    const [moved] = await db
      .updateTable('items')
      .set({ id: 3 })
      .where('id', '=', 1)
      .returningAll()
      .execute();
    expect(moved).toEqual({ id: 3 });
    expect(syncs.count).toBe(after + 1);
  });

  it('waits for no sync after a provider budget’s reservation (docs/delivery.md, « Provider rate budgets »)', async () => {
    const { db, syncs } = await open();
    await db.insertInto('items').values({ id: 1 }).execute();
    const after = syncs.count;
    await db
      .insertInto('provider_budgets')
      .values({ key: 'brevo:contacts', recent_calls: '' })
      .execute();
    await db
      .updateTable('provider_budgets')
      .set({ recent_calls: '1' })
      .where('key', '=', 'brevo:contacts')
      .execute();
    expect(syncs.count).toBe(after);
    await db.insertInto('items').values({ id: 2 }).execute();
    expect(syncs.count).toBe(after + 1);
  });
});
