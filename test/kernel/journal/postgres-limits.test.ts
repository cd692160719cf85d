import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { hasPostgres } from '../../helpers/postgres-databases.ts';

/** docs/deployment.md: DATABASE_POOL_SIZE and DATABASE_STATEMENT_TIMEOUT_MS bound what one node asks of PostgreSQL. */
describe.skipIf(!hasPostgres())(
  'PostgreSQL pool and statement timeout (docs/deployment.md)',
  () => {
    let testApp: TestApp;
    let admin: pg.Client | undefined;
    afterEach(async () => {
      await admin?.end();
      admin = undefined;
      await testApp?.close();
    });

    const subscribe = (i: number) =>
      testApp.app.inject({
        method: 'POST',
        url: '/api/subscribe',
        payload: { email: `pool-${i}@example.fr`, firstName: 'Léa' },
      });

    async function connectAdmin() {
      admin = new pg.Client({ connectionString: testApp.config.databaseUrl });
      await admin.connect();
      return admin;
    }

    it('a statement stuck behind a lock ends at DATABASE_STATEMENT_TIMEOUT_MS: 500, then 200 once free', async () => {
      testApp = await buildTestApp({
        dialect: 'postgres',
        env: { DATABASE_STATEMENT_TIMEOUT_MS: '300' },
      });
      const locker = await connectAdmin();
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE leads IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const stuck = await subscribe(1);
      expect(stuck.statusCode).toBe(500);
      expect(stuck.json()).toMatchObject({ error: { code: 'server_error' } });
      expect(Date.now() - started).toBeLessThan(3000);
      await locker.query('ROLLBACK');
      expect((await subscribe(2)).statusCode).toBe(200);
    });

    it('never opens more than DATABASE_POOL_SIZE connections, however many requests arrive', async () => {
      testApp = await buildTestApp({
        dialect: 'postgres',
        // The 30th request waits for 29 others on two connections, for its journal entry and its
        // hand-off: on a loaded machine longer than the 5 s default for getting a connection and
        // the 8 s hand-off deadline, which answered 502 (docs/quality.md, « Waits sized for a
        // loaded machine »). The bound checked here is the pool's size, not those waits.
        env: {
          DATABASE_POOL_SIZE: '2',
          DATABASE_CONNECT_TIMEOUT_MS: '60000',
          PROVIDER_TIMEOUT_MS: '60000',
        },
      });
      const watcher = await connectAdmin();
      let peak = 0;
      let watching = true;
      const watch = (async () => {
        while (watching) {
          const { rows } = await watcher.query<{ count: string }>(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'leadgate' AND datname = current_database()",
          );
          peak = Math.max(peak, Number(rows[0]!.count));
          await new Promise((done) => setTimeout(done, 5));
        }
      })();
      const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => subscribe(i)));
      watching = false;
      await watch;
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(30).fill(200));
      expect(peak).toBeGreaterThan(0);
      expect(peak).toBeLessThanOrEqual(2);
    });
  },
);
