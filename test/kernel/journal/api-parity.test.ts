import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, validAudit, validContact, type TestApp } from '../../helpers/app.ts';
import { hasPostgres, type TestDialect } from '../../helpers/postgres-databases.ts';

/**
 * docs/deployment.md: callers see the same API whichever database is behind it. The whole suite also runs on
 * PostgreSQL with `npm run test:postgres`; these cases run on both dialects in every `npm test`.
 */
const dialects: TestDialect[] = hasPostgres() ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(dialects)(
  'the API on %s (same answers on both databases, docs/deployment.md)',
  (dialect) => {
    let testApp: TestApp;
    afterEach(async () => testApp?.close());

    const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
      testApp.app.inject({ method: 'POST', url, payload, headers });

    it('spec 4.2: a second subscription of one address answers existing: true', async () => {
      testApp = await buildTestApp({ dialect });
      const first = await post('/api/subscribe', { email: 'Zoe@Example.fr', firstName: 'Zoé' });
      const again = await post('/api/subscribe', { email: 'zoe@example.fr', firstName: 'Zoé' });
      // Spec 2.4 keeps `success` and `existing`; `confirmation` is the optional addition of
      // docs/api-decisions.md.
      expect([first.json(), again.json()]).toMatchObject([
        { success: true, existing: false, confirmation: 'sent' },
        { success: true, existing: true },
      ]);
      // Spec 2.4: known per audience, so an audit by the same address is its first.
      const audit = await post('/api/audit', { ...validAudit, email: 'zoe@example.fr' });
      expect(audit.json()).toMatchObject({ success: true, existing: false });
    });

    it('spec 4.1: a contact request is journaled and answered success alone; a form is redirected', async () => {
      testApp = await buildTestApp({ dialect });
      expect((await post('/api/contact', validContact)).json()).toEqual({ success: true });
      const form = await testApp.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: new URLSearchParams({ ...validContact, NOM: 'Durand' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.statusCode).toBe(303);
      const entries = await testApp.store.list();
      expect(entries.map((entry) => [entry.lead.kind, entry.status])).toEqual([
        ['contact', 'delivered'],
        ['contact', 'delivered'],
      ]);
    });

    it('one Idempotency-Key sent twice journals one lead and answers the same (docs/reliability.md)', async () => {
      testApp = await buildTestApp({ dialect });
      const headers = { 'idempotency-key': 'parite-1' };
      const body = { email: 'cle@example.fr', firstName: 'Léa' };
      const answers = await Promise.all([
        post('/api/subscribe', body, headers),
        post('/api/subscribe', body, headers),
      ]);
      const [one, two] = answers.map((answer) => answer.json());
      expect(one).toMatchObject({ success: true, existing: false });
      expect(two).toEqual(one);
      expect(await testApp.store.list()).toHaveLength(1);
    });

    it('spec 7: a journal that cannot be written answers 500 server_error, never a success', async () => {
      testApp = await buildTestApp({ dialect });
      if (dialect === 'postgres') {
        const url = new URL(testApp.config.databaseUrl!);
        const name = url.pathname.slice(1);
        url.pathname = '/postgres';
        const admin = new pg.Client({ connectionString: url.toString() });
        await admin.connect();
        await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
        await admin.end();
      } else {
        await testApp.store.close();
      }
      const answer = await post('/api/subscribe', { email: 'perdu@example.fr', firstName: 'Léa' });
      expect(answer.statusCode).toBe(500);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(answer.json()).toMatchObject({ success: false, error: { code: 'server_error' } });
      expect((await testApp.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    });
  },
);
