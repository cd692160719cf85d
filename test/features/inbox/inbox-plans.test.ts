import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { SqlLeadWork } from '../../../src/features/inbox/sql-lead-work.ts';
import type { InboxFilter } from '../../../src/features/inbox/lead-work.ts';
import type { Database } from '../../../src/kernel/journal/tables.ts';
import { sqliteLeadSearch } from '../../../src/kernel/journal/sqlite/sqlite-lead-search.ts';
import { sqliteFile } from '../../../src/wiring/create-store.ts';
import { acceptLead, sharedDatabase, subscribeLead } from '../../helpers/test-stores.ts';

/**
 * docs/performance.md, « The workspace »: the inbox's views and the exports read the leads in the
 * page's order from an index and stop at the page. A plan that sorts (« USE TEMP B-TREE FOR ORDER
 * BY ») reads and sorts every lead of the journal for each page: at 100,000 leads the inbox's first
 * page went 7 → 62 ms and an export 5 → 45 s when a filter's condition led SQLite to another
 * index. The plans are SQLite's own, read with EXPLAIN QUERY PLAN on the queries the inbox sends.
 */
describe('the inbox reads the leads in page order on SQLite', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => close?.());

  async function plansOf(read: (work: SqlLeadWork) => Promise<unknown>): Promise<string[][]> {
    const database = await sharedDatabase('sqlite');
    const store = await database.open();
    for (let index = 0; index < 3; index += 1)
      await acceptLead(store, subscribeLead(`p${index}@example.fr`));
    const file = new SQLite(sqliteFile(database.config.dataDir), { readonly: true });
    const queries: CompiledQuery[] = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: file }),
      log: (event) => void queries.push(event.query),
    });
    close = async () => {
      await db.destroy();
      await database.close();
    };
    await read(new SqlLeadWork(db, sqliteLeadSearch));
    return queries
      .filter((query) => /order by/i.test(query.sql))
      .map((query) =>
        file
          .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`)
          .all(...query.parameters)
          .map((row) => row.detail),
      );
  }

  // « À traiter » is left out: its index holds the unanswered leads only, read and sorted whole.
  const VIEWS: [string, InboxFilter][] = [
    ['every lead', {}],
    ['one status', { workStatuses: ['en-cours'] }],
    ['unassigned', { assignee: null }],
  ];

  it.each(VIEWS)('%s: a page, newest and oldest (due) first', async (_name, filter) => {
    const plans = await plansOf(async (work) => {
      await work.page({ ...filter, limit: 50 });
      await work.page({ ...filter, order: 'due', limit: 50 });
    });
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect(plan.join(' | ')).not.toContain('TEMP B-TREE');
  });

  it('an export of every lead, page after page', async () => {
    const plans = await plansOf(async (work) => {
      for await (const entry of work.all({})) void entry;
    });
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) expect(plan.join(' | ')).not.toContain('TEMP B-TREE');
  });
});
