import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import { activeMember, FAST_SCRYPT, postForm, signIn } from './staff-session.ts';

let nodes: TestApp[] = [];
afterEach(async () => {
  // The second node first: the first one's database is dropped when it closes.
  for (const node of nodes.reverse()) await node.close();
  nodes = [];
});

/**
 * docs/workspace-security.md, "Sessions", and docs/workspace.md: the workspace keeps nothing in a
 * node's memory: a session opened on one node works on the other, and a status or an assignee set
 * on one is what the other shows (both journals: two processes on one SQLite file, or two nodes on
 * one PostgreSQL database).
 */
describe(`the workspace on two nodes of one journal (${defaultTestDialect})`, () => {
  it('a session, a status and an assignee set on one node are what the other shows', async () => {
    const first = await buildTestApp({ passwordCost: FAST_SCRYPT });
    nodes.push(first);
    const second = await buildTestApp({
      passwordCost: FAST_SCRYPT,
      env: {
        DATA_DIR: first.dataDir,
        ...(first.config.databaseUrl && { DATABASE_URL: first.config.databaseUrl }),
      },
    });
    nodes.push(second);
    await activeMember(first.app, first.store, 'patronne@agence.fr', 'admin');
    const admin = (await first.store.staff.accountByEmail('patronne@agence.fr'))!;
    expect((await postJson(first.app, '/api/contact', validContact)).statusCode).toBe(200);
    const [entry] = await second.store.list();
    const page = `/equipe/prospects/${entry!.lead.id}`;

    // Signed in on the first node, the cookie opens the second's pages (sessions live in the journal).
    const { cookie, csrf } = await signIn(first.app, 'patronne@agence.fr');
    const before = await second.app.inject({ url: page, headers: { cookie } });
    expect(before.statusCode).toBe(200);
    expect(before.body).toMatch(/<option value="nouveau" selected>/);

    const set = await postForm(
      second.app,
      `${page}/suivi`,
      { _csrf: csrf, statut: 'en-cours', attribue: admin.id },
      cookie,
    );
    expect(set.statusCode).toBe(303);
    const seen = await first.app.inject({ url: page, headers: { cookie } });
    expect(seen.body).toMatch(/<option value="en-cours" selected>/);
    expect(seen.body).toMatch(new RegExp(`<option value="${admin.id}" selected>`));
    const inbox = await first.app.inject({ url: '/equipe?statut=en-cours', headers: { cookie } });
    expect(inbox.body).toContain(entry!.lead.id);
  });
});
