import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../../src/kernel/journal/sqlite/sqlite-statement-cache.ts';

/** docs/performance.md: the SQLite journal reuses its prepared statements instead of preparing each run. */
describe('SQLite statement cache', () => {
  let database: SQLite.Database;
  afterEach(() => {
    if (database.open) database.close();
  });

  function open() {
    database = new SQLite(':memory:');
    database.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)');
    return withStatementCache(database);
  }

  it('hands out the same statement for the same SQL, and it runs with new parameters', () => {
    const cached = open();
    const insert = cached.prepare('INSERT INTO items (id, name) VALUES (?, ?)');
    insert.run([1, 'un']);
    expect(cached.prepare('INSERT INTO items (id, name) VALUES (?, ?)')).toBe(insert);
    cached.prepare('INSERT INTO items (id, name) VALUES (?, ?)').run([2, 'deux']);
    expect(cached.prepare('SELECT name FROM items ORDER BY id').all([])).toEqual([
      { name: 'un' },
      { name: 'deux' },
    ]);
  });

  it('keeps the statements in use and lets go of the others, however many queries there are', () => {
    const cached = open();
    const inUse = cached.prepare('SELECT 0');
    const unused = cached.prepare('SELECT 1');
    for (let index = 2; index < 10_000; index++) {
      cached.prepare(`SELECT ${index}`);
      // A query the journal runs all the time stays prepared among ten thousand one-off ones.
      if (index % 100 === 0) expect(cached.prepare('SELECT 0')).toBe(inUse);
    }
    expect(cached.prepare('SELECT 0')).toBe(inUse);
    // The cache is bounded: a statement not used since is prepared again.
    expect(cached.prepare('SELECT 1')).not.toBe(unused);
  });

  it('never hands out a statement still iterating: both iterations read their own rows', () => {
    const cached = open();
    database.exec("INSERT INTO items VALUES (1, 'un'), (2, 'deux')");
    const query = 'SELECT id FROM items WHERE id >= ? ORDER BY id';
    const outer = cached.prepare(query).iterate([1]);
    expect(outer.next().value).toEqual({ id: 1 });
    expect(cached.prepare(query).all([2])).toEqual([{ id: 2 }]);
    expect(outer.next().value).toEqual({ id: 2 });
    outer.return?.();
  });

  it('runs Kysely queries, and statements are re-prepared after a schema change', async () => {
    const db = new Kysely<{ items: { id: number; name: string } }>({
      dialect: new SqliteDialect({ database: open() }),
    });
    await db.insertInto('items').values({ id: 1, name: 'un' }).execute();
    const select = () => db.selectFrom('items').selectAll().execute();
    expect(await select()).toEqual([{ id: 1, name: 'un' }]);
    await sql`ALTER TABLE items ADD COLUMN note TEXT DEFAULT 'n'`.execute(db);
    expect(await select()).toEqual([{ id: 1, name: 'un', note: 'n' }]);
    await db.destroy();
  });
});
