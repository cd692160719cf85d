import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { inviteStaff } from '../../../src/features/staff/invitations.ts';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validAudit, validContact } from '../../helpers/app.ts';
import { holdAsSpam } from '../../helpers/test-stores.ts';
import { hasTool } from '../../helpers/tools.ts';
import { activeMember, FAST_SCRYPT, ORIGIN, postForm, signIn } from './staff-session.ts';

const VNU_JAR = join(
  createRequire(import.meta.url).resolve('vnu-jar/package.json'),
  '../build/dist/vnu.jar',
);

/**
 * docs/workspace-privacy.md, « Personnes et RGPD »: a person with a lead, the erasure's question,
 * the register, the list.
 */
async function peopleDeskPages(app: FastifyInstance, cookie: string, csrf: string) {
  const email = 'marie.dupont@example.fr';
  await postJson(app, '/api/contact', { ...validContact, EMAIL: email });
  const entry = await postForm(
    app,
    '/equipe/personnes/registre',
    { _csrf: csrf, recue: '2026-01-05', canal: 'letter', type: 'objection', email },
    cookie,
  );
  const get = (url: string) => app.inject({ url, headers: { cookie } });
  const pages = {
    people: await get('/equipe/personnes'),
    person: await postForm(app, '/equipe/personnes', { _csrf: csrf, email }, cookie),
    erasure: await postForm(app, '/equipe/personnes/effacement', { _csrf: csrf, email }, cookie),
    register: await get('/equipe/personnes/registre'),
    request: await get(entry.headers.location as string),
    optOut: await postForm(
      app,
      '/equipe/personnes/opposition',
      { _csrf: csrf, email, motif: 'opposition', action: 'ajouter' },
      cookie,
    ),
  };
  return { pages, registerEntry: entry.headers.location as string };
}

/**
 * Every GET route the workspace registers (app.workspaceRoutes, as the security test walks them),
 * fetched signed in with an example for each parameter; a redirect is followed once. A page added
 * later is checked too, in its plain state, and a route whose parameter has no example fails here.
 */
async function registeredPages(
  app: FastifyInstance,
  cookie: string,
  examples: Record<string, string>,
): Promise<Record<string, LightMyRequestResponse>> {
  const pages: Record<string, LightMyRequestResponse> = {};
  for (const route of app.workspaceRoutes.filter((route) => route.method === 'GET')) {
    let url = route.url;
    for (const [pattern, path] of Object.entries(examples)) {
      if (url.startsWith(pattern)) url = path + url.slice(pattern.length);
    }
    expect(url, `${route.url}: give its parameter an example here`).not.toContain(':');
    let response = await app.inject({ url, headers: { cookie } });
    if (response.statusCode === 303) {
      response = await app.inject({ url: response.headers.location!, headers: { cookie } });
    }
    if (String(response.headers['content-type']).startsWith('text/html')) {
      pages[`route${url.replace(/[^a-z0-9]+/gi, '-')}`] = response;
    }
  }
  return pages;
}

/** docs/quality.md: the Nu HTML Checker finds 0 errors on every page the workspace answers. */
describe.skipIf(!hasTool('java', ['-version']))('workspace pages in the Nu HTML Checker', () => {
  const testApp = useTestApp({ passwordCost: FAST_SCRYPT });

  it('reports 0 errors on the sign-in, invitation and signed-in pages, with leads to list, and on every GET route the workspace registers', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'nu@agence.fr');
    const { cookie, csrf } = await signIn(app, 'nu@agence.fr');
    const { link } = await inviteStaff(store, {
      email: 'invite@agence.fr',
      role: 'member',
      siteUrl: ORIGIN,
      now: new Date(),
      invitedBy: null,
    });
    const get = (url: string, signedIn = true) =>
      app.inject({ url, headers: signedIn ? { cookie } : {} });
    // Leads on every page that lists them: one delivered (its steps), one answered with a
    // questionnaire, one held by the bot trap.
    for (const [path, body] of [
      ['/api/contact', validContact],
      ['/api/audit', validAudit],
    ] as const) {
      expect((await postJson(app, path, body)).statusCode).toBe(200);
    }
    await holdAsSpam(store, {
      kind: 'contact',
      id: 'held-nu',
      receivedAt: new Date(),
      data: validContact,
    } as Lead);
    const [lead] = (await store.work.page({ limit: 1 })).entries;
    const pages = {
      connexion: await app.inject({ url: '/equipe/connexion' }),
      refused: await postForm(app, '/equipe/connexion', { email: 'x@agence.fr', password: 'x' }),
      invitation: await get(link.slice(ORIGIN.length), false),
      gone: await get('/equipe/invitation?jeton=nope', false),
      home: await get('/equipe'),
      searched: await get('/equipe?q=dupont&statut=nouveau&tri=echeance'),
      lead: await get(`/equipe/prospects/${lead!.lead.id}`),
      held: await get('/equipe/a-verifier'),
      heldLead: await get('/equipe/prospects/held-nu'),
      noLead: await get('/equipe/prospects/nulle-part'),
      team: await get('/equipe/equipe'),
      invited: await postForm(
        app,
        '/equipe/equipe',
        { _csrf: csrf, email: 'b@agence.fr', role: 'member' },
        cookie,
      ),
      journal: await get('/equipe/journal'),
      account: await get('/equipe/compte'),
      wrongCode: await postForm(
        app,
        '/equipe/compte/double-authentification',
        { _csrf: csrf, secret: 'A'.repeat(32), code: '000000' },
        cookie,
      ),
      recoveryCodes: await postForm(
        app,
        '/equipe/compte/codes-de-secours',
        { _csrf: csrf },
        cookie,
      ),
      dashboard: await get('/equipe/tableau-de-bord'),
      notFound: await get('/equipe/nulle-part'),
    };
    const people = await peopleDeskPages(app, cookie, csrf);
    Object.assign(pages, people.pages);
    Object.assign(
      pages,
      await registeredPages(app, cookie, {
        '/equipe/prospects/:id': `/equipe/prospects/${lead!.lead.id}`,
        '/equipe/personnes/registre/:id': people.registerEntry,
      }),
    );
    // The walk reached every page the workspace has, beyond the states set up above.
    expect(Object.keys(pages).filter((name) => name.startsWith('route-'))).toEqual(
      expect.arrayContaining([
        'route-equipe',
        'route-equipe-journal',
        'route-equipe-personnes-registre',
      ]),
    );
    const dir = mkdtempSync(join(tmpdir(), 'leadgate-nu-'));
    try {
      const files = Object.entries(pages as Record<string, LightMyRequestResponse>).map(
        ([name, response]) => {
          expect(response.headers['content-type'], name).toBe('text/html; charset=utf-8');
          const file = join(dir, `${name}.html`);
          writeFileSync(file, response.body);
          return file;
        },
      );
      const { stderr } = await promisify(execFile)(
        'java',
        ['-jar', VNU_JAR, '--format', 'json', '--exit-zero-always', ...files],
        { maxBuffer: 16 * 1024 * 1024, timeout: 90_000 },
      );
      const { messages } = JSON.parse(stderr) as {
        messages: { type: string; url: string; lastLine?: number; message: string }[];
      };
      const errors = messages
        .filter((message) => message.type !== 'info')
        .map(
          (message) =>
            `${message.url.replace(`file:${dir}`, '')}:${message.lastLine ?? '?'} ${message.message}`,
        );
      expect(errors).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
