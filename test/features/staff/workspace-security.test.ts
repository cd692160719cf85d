import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { robotsTxt } from '../../../src/features/site/crawl-files.ts';
import { loggerOptions } from '../../../src/kernel/observability/logging.ts';
import { inviteStaff } from '../../../src/features/staff/invitations.ts';
import { throttleKeys } from '../../../src/features/staff/sign-in-throttle.ts';
import { buildTestApp, useTestApp } from '../../helpers/app.ts';
import {
  activeMember,
  FAST_SCRYPT,
  csrfOf,
  ORIGIN,
  PASSWORD,
  postForm,
  sessionCookieOf,
  signIn,
} from './staff-session.ts';

/** A clock the tests move: sessions and invitations expire without waiting (../shared/STYLE.md). */
const clock = { now: new Date() };
const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));
const MINUTE = 60_000;

const lines: string[] = [];
const logStream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    done();
  },
});

/** Public routes: sign-in, invitation, the stylesheet. Everything else needs a session. */
const PUBLIC = new Set([
  'GET /equipe/connexion',
  'POST /equipe/connexion',
  'GET /equipe/invitation',
  'POST /equipe/invitation',
  'GET /equipe/espace.css',
]);

const concrete = (url: string) => url.replace(/:[A-Za-z]+/g, 'x0');

function expectWorkspaceHeaders(headers: Record<string, unknown>, what: string) {
  // The stylesheet holds no data: revalidated (no-cache + ETag) rather than downloaded each time.
  if (!what.includes('espace.css')) expect(headers['cache-control'], what).toBe('no-store');
  expect(headers['x-robots-tag'], what).toBe('noindex, nofollow');
  expect(String(headers['content-security-policy']), what).toContain("default-src 'self'");
  expect(String(headers['content-security-policy']), what).not.toContain('unsafe-inline');
}

describe('workspace: sessions, CSRF and headers on every route (docs/workspace-security.md)', () => {
  const testApp = useTestApp({
    passwordCost: FAST_SCRYPT,
    now: () => clock.now,
    logger: loggerOptions({ logLevel: 'info', secrets: [] }, logStream),
  });
  let adminMade = false;
  const signedInAdmin = async () => {
    if (!adminMade)
      await activeMember(testApp.app, testApp.store, 'admin@agence.fr', 'admin', clock.now);
    adminMade = true;
    return signIn(testApp.app, 'admin@agence.fr');
  };

  it('covers the routes the security rules walk (a page added later is walked too)', () => {
    const routes = testApp.app.workspaceRoutes.map((route) => `${route.method} ${route.url}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /equipe',
        'GET /equipe/journal',
        'GET /equipe/equipe',
        'POST /equipe/equipe',
        'POST /equipe/deconnexion',
        ...PUBLIC,
      ]),
    );
  });

  it('answers every non-public route without a session by a 303 to the sign-in page, never data', async () => {
    const { app } = testApp;
    for (const route of app.workspaceRoutes) {
      if (PUBLIC.has(`${route.method} ${route.url}`)) continue;
      for (const cookie of [undefined, 'leadgate_equipe=forged-token']) {
        const response = await postOrGet(app, route.method, concrete(route.url), cookie);
        const what = `${route.method} ${route.url} ${cookie ?? ''}`;
        expect(response.statusCode, what).toBe(303);
        expect(response.headers.location, what).toMatch(
          /^\/equipe\/connexion(\?suite=\/equipe[^?]*)?$/,
        );
        expect(response.body, what).toBe('');
        expectWorkspaceHeaders(response.headers, what);
      }
    }
    // An unknown workspace address too.
    const unknown = await app.inject({ url: '/equipe/nulle-part' });
    expect(unknown.statusCode).toBe(303);
  });

  it('sends every page with no-store, noindex (header and meta) and the strict CSP, signed in or not', async () => {
    const { app } = testApp;
    const { cookie } = await signedInAdmin();
    for (const route of app.workspaceRoutes.filter((route) => route.method === 'GET')) {
      for (const withSession of [false, true]) {
        const response = await app.inject({
          url: concrete(route.url),
          headers: withSession ? { cookie } : {},
        });
        const what = `GET ${route.url} ${withSession ? 'signed in' : ''}`;
        expectWorkspaceHeaders(response.headers, what);
        if (String(response.headers['content-type']).startsWith('text/html')) {
          expect(response.body, what).toContain('<meta name="robots" content="noindex, nofollow">');
        }
      }
    }
  });

  it('refuses a cross-origin POST (Sec-Fetch-Site, Origin) and a POST without the session’s _csrf, with no effect', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'victime@agence.fr', 'member', clock.now);
    const victim = await signIn(app, 'victime@agence.fr');
    const attempts: [Record<string, string>, Record<string, string>][] = [
      [{ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }, { _csrf: victim.csrf }],
      [{ origin: 'https://evil.example' }, { _csrf: victim.csrf }],
      [
        { 'sec-fetch-site': 'same-site', origin: 'https://sous.localhost:3000' },
        { _csrf: victim.csrf },
      ],
      [{}, { _csrf: victim.csrf }],
      [{ origin: ORIGIN, 'sec-fetch-site': 'same-origin' }, {}],
      [{ origin: ORIGIN, 'sec-fetch-site': 'same-origin' }, { _csrf: 'x'.repeat(43) }],
    ];
    for (const [headers, fields] of attempts) {
      const response = await postForm(app, '/equipe/deconnexion', fields, victim.cookie, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(403);
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    // Every POST route refuses a cross-site post before reading anything.
    for (const route of app.workspaceRoutes.filter((route) => route.method === 'POST')) {
      const response = await postForm(
        app,
        concrete(route.url),
        { _csrf: victim.csrf },
        victim.cookie,
        {
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
        },
      );
      expect(response.statusCode, route.url).toBe(403);
    }
    // The session survived all of it.
    const home = await app.inject({ url: '/equipe', headers: { cookie: victim.cookie } });
    expect(home.statusCode).toBe(200);
    expect(lines.some((line) => line.includes('workspace: cross-origin request refused'))).toBe(
      true,
    );
  });

  it('ends a session at sign-out, and every session of the account at « se déconnecter partout »', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'partout@agence.fr', 'member', clock.now);
    const first = await signIn(app, 'partout@agence.fr');
    const second = await signIn(app, 'partout@agence.fr');
    expect(first.cookie).not.toBe(second.cookie);
    const out = await postForm(app, '/equipe/deconnexion', { _csrf: first.csrf }, first.cookie);
    expect(out.statusCode).toBe(303);
    expect(out.headers['set-cookie']).toMatch(/^leadgate_equipe=; Path=\/; Max-Age=0/);
    expect(
      (await app.inject({ url: '/equipe', headers: { cookie: first.cookie } })).statusCode,
    ).toBe(303);
    expect(
      (await app.inject({ url: '/equipe', headers: { cookie: second.cookie } })).statusCode,
    ).toBe(200);
    const third = await signIn(app, 'partout@agence.fr');
    const everywhere = await postForm(
      app,
      '/equipe/deconnexion-partout',
      { _csrf: third.csrf },
      third.cookie,
    );
    expect(everywhere.statusCode).toBe(303);
    for (const session of [second, third]) {
      expect(
        (await app.inject({ url: '/equipe', headers: { cookie: session.cookie } })).statusCode,
      ).toBe(303);
    }
  });

  it('kills a disabled account’s session at once; the account cannot sign in again', async () => {
    const { app, store } = testApp;
    const { cookie, csrf } = await signedInAdmin();
    await activeMember(app, store, 'depart@agence.fr', 'member', clock.now);
    const member = await signIn(app, 'depart@agence.fr');
    const account = (await store.staff.accountByEmail('depart@agence.fr'))!;
    const disabled = await postForm(
      app,
      `/equipe/equipe/${account.id}/desactiver`,
      { _csrf: csrf },
      cookie,
    );
    expect(disabled.statusCode).toBe(303);
    const next = await app.inject({ url: '/equipe', headers: { cookie: member.cookie } });
    expect(next.statusCode).toBe(303);
    expect(next.headers.location).toBe('/equipe/connexion');
    const again = await postForm(app, '/equipe/connexion', {
      email: 'depart@agence.fr',
      password: PASSWORD,
    });
    expect(again.statusCode).toBe(401);
  });

  it('closes a session idle longer than STAFF_SESSION_IDLE_MINUTES, and any at STAFF_SESSION_MAX_HOURS', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'horloge@agence.fr', 'member', clock.now);
    const idle = await signIn(app, 'horloge@agence.fr');
    later(61 * MINUTE);
    expect(
      (await app.inject({ url: '/equipe', headers: { cookie: idle.cookie } })).statusCode,
    ).toBe(303);
    const active = await signIn(app, 'horloge@agence.fr');
    for (let hour = 0; hour < 12; hour++) {
      later(50 * MINUTE);
      expect(
        (await app.inject({ url: '/equipe', headers: { cookie: active.cookie } })).statusCode,
      ).toBe(200);
      later(10 * MINUTE);
    }
    expect(
      (await app.inject({ url: '/equipe', headers: { cookie: active.cookie } })).statusCode,
    ).toBe(303);
  });

  it('answers an unknown address, a wrong password and a disabled account alike, after the same work', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'connue@agence.fr', 'member', clock.now);
    const answers = [];
    for (const [email, password] of [
      ['inconnue@agence.fr', PASSWORD],
      ['connue@agence.fr', 'pas le bon mot de passe'],
      ['depart@agence.fr', PASSWORD],
    ] as const) {
      const response = await postForm(app, '/equipe/connexion', { email, password });
      answers.push({
        status: response.statusCode,
        cookie: response.headers['set-cookie'],
        body: response.body.replaceAll(email, 'ADRESSE'),
      });
    }
    expect(answers[0]!.status).toBe(401);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(answers[0]!.body).toContain('Adresse e-mail, mot de passe ou code incorrect.');
    // The same path: each refusal counted one failure under its typed address, known or not.
    const keys = ['inconnue@agence.fr', 'connue@agence.fr', 'depart@agence.fr'].map(
      (email) => throttleKeys(email, '127.0.0.1').account,
    );
    const counts = await store.staff.signInFailures(keys);
    expect(keys.map((key) => counts.get(key)?.failures)).toEqual([1, 1, 2]);
  });

  it('throttles sign-in per account with a growing wait, logged and in the trail, known or unknown alike', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'cible@agence.fr', 'member', clock.now);
    for (const email of ['cible@agence.fr', 'personne@agence.fr']) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const refused = await postForm(app, '/equipe/connexion', {
          email,
          password: 'mauvais mot de passe',
        });
        expect(refused.statusCode).toBe(401);
      }
      // The sixth attempt, even with the right password, waits.
      const waiting = await postForm(app, '/equipe/connexion', { email, password: PASSWORD });
      expect(waiting.statusCode, email).toBe(429);
      expect(waiting.headers['retry-after']).toBe('1');
      expect(waiting.headers['set-cookie']).toBeUndefined();
      expect(waiting.body).toContain('Trop d’essais');
    }
    later(1_000);
    expect(
      (
        await postForm(app, '/equipe/connexion', {
          email: 'cible@agence.fr',
          password: 'encore faux !!',
        })
      ).statusCode,
    ).toBe(401);
    // The next wait is twice as long.
    later(1_000);
    const doubled = await postForm(app, '/equipe/connexion', {
      email: 'cible@agence.fr',
      password: PASSWORD,
    });
    expect(doubled.statusCode).toBe(429);
    expect(doubled.headers['retry-after']).toBe('1');
    later(1_000);
    const through = await postForm(app, '/equipe/connexion', {
      email: 'cible@agence.fr',
      password: PASSWORD,
    });
    expect(through.statusCode).toBe(303);
    expect(lines.some((line) => line.includes('workspace: sign-in throttled'))).toBe(true);
    // One line per key and minute, with its count (docs/workspace-security.md, "Audit trail").
    const trail = await store.staff.auditTrail({ limit: 500, action: 'sign-in-throttled' });
    expect(trail.reduce((total, line) => total + (line.repeats ?? 1), 0)).toBeGreaterThanOrEqual(3);
  });

  it('throttles a client address trying many accounts', async () => {
    const { app } = testApp;
    const from = { origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'x-test': '1' };
    const post = (email: string) =>
      app.inject({
        method: 'POST',
        url: '/equipe/connexion',
        remoteAddress: '203.0.113.9',
        headers: { ...from, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email, password: 'devine devine devine' }).toString(),
      });
    for (let attempt = 0; attempt < 20; attempt++) {
      expect((await post(`compte${attempt}@agence.fr`)).statusCode).toBe(401);
    }
    expect((await post('compte-neuf@agence.fr')).statusCode).toBe(429);
    // Twenty-one scrypts: slow on a loaded machine, on purpose (docs/workspace-security.md,
    // "Passwords").
  }, 180_000);

  it('makes an invitation single-use and valid 48 hours, and refuses a short password on the field', async () => {
    const { app, store } = testApp;
    const invite = async () =>
      new URL(
        (
          await inviteStaff(store, {
            email: 'nouveau@agence.fr',
            role: 'member',
            siteUrl: ORIGIN,
            now: clock.now,
            invitedBy: null,
          })
        ).link,
      ).searchParams.get('jeton')!;
    const token = await invite();
    const short = await postForm(app, '/equipe/invitation', {
      jeton: token,
      password: 'court',
      confirmation: 'court',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('aria-invalid="true"');
    expect(short.body).toContain('au moins 12 caractères');
    const set = { jeton: token, password: PASSWORD, confirmation: PASSWORD };
    expect((await postForm(app, '/equipe/invitation', set)).statusCode).toBe(303);
    expect((await postForm(app, '/equipe/invitation', set)).statusCode).toBe(410);
    expect((await app.inject({ url: `/equipe/invitation?jeton=${token}` })).statusCode).toBe(410);
    const old = await invite();
    expect((await app.inject({ url: `/equipe/invitation?jeton=${old}` })).statusCode).toBe(200);
    later(48 * 60 * MINUTE + 1);
    expect((await app.inject({ url: `/equipe/invitation?jeton=${old}` })).statusCode).toBe(410);
    // The token never reaches a log line.
    expect(lines.some((line) => line.includes(old))).toBe(false);
  });

  it('keeps the team and the audit trail to admins; the trail lists who signed in', async () => {
    const { app, store } = testApp;
    await activeMember(app, store, 'membre@agence.fr', 'member', clock.now);
    const member = await signIn(app, 'membre@agence.fr');
    expect(
      (await app.inject({ url: '/equipe/journal', headers: { cookie: member.cookie } })).statusCode,
    ).toBe(403);
    expect(
      (await app.inject({ url: '/equipe/equipe', headers: { cookie: member.cookie } })).statusCode,
    ).toBe(403);
    const { cookie } = await signedInAdmin();
    const journal = await app.inject({
      url: '/equipe/journal?action=sign-in',
      headers: { cookie },
    });
    expect(journal.statusCode).toBe(200);
    expect(journal.body).toContain('membre@agence.fr');
    expect(journal.body.replace(/\s+/g, ' ')).toMatch(/<caption> ?Journal d’activité : Connexion/);
  });

  it('closes /equipe to every robot in robots.txt', () => {
    const groups = robotsTxt(ORIGIN)
      .split(/\n\s*\n/)
      .filter((block) => /^User-agent:/m.test(block));
    for (const group of groups) expect(group.split('\n'), group).toContain('Disallow: /equipe');
  });
});

describe('workspace: the session cookie (docs/workspace-security.md, "Sessions")', () => {
  it('is __Host-, Secure, HttpOnly, SameSite=Lax, Path=/ and without Domain behind HTTPS', async () => {
    const test = await buildTestApp({
      env: { SITE_URL: 'https://agence.example' },
      passwordCost: FAST_SCRYPT,
    });
    try {
      await inviteAndSet(test.app, test.store, 'https://agence.example');
      const response = await postForm(
        test.app,
        '/equipe/connexion',
        { email: 'https@agence.fr', password: PASSWORD },
        undefined,
        { origin: 'https://agence.example' },
      );
      expect(response.statusCode).toBe(303);
      const cookie = String(response.headers['set-cookie']);
      expect(cookie).toMatch(
        /^__Host-leadgate_equipe=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=43200; HttpOnly; SameSite=Lax; Secure$/,
      );
      expect(cookie).not.toMatch(/domain/i);
      expect(sessionCookieOf(response)).toBeDefined();
    } finally {
      await test.close();
    }
  });

  it('refuses to sign anyone in over plain HTTP on a non-loopback SITE_URL', async () => {
    const test = await buildTestApp({
      env: { SITE_URL: 'http://agence.example' },
      passwordCost: FAST_SCRYPT,
    });
    try {
      const page = await test.app.inject({ url: '/equipe/connexion' });
      expect(page.body).toContain('HTTPS');
      expect(page.body).not.toContain('name="password"');
      const response = await postForm(
        test.app,
        '/equipe/connexion',
        { email: 'a@agence.fr', password: PASSWORD },
        undefined,
        { origin: 'http://agence.example' },
      );
      expect(response.statusCode).toBe(403);
      expect(response.headers['set-cookie']).toBeUndefined();
    } finally {
      await test.close();
    }
  });
});

async function inviteAndSet(
  app: FastifyInstance,
  store: Parameters<typeof inviteStaff>[0],
  origin: string,
) {
  const { link } = await inviteStaff(store, {
    email: 'https@agence.fr',
    role: 'admin',
    siteUrl: origin,
    now: new Date(),
    invitedBy: null,
  });
  const form = await app.inject({ url: link.slice(origin.length) });
  expect(form.statusCode).toBe(200);
  const token = new URL(link).searchParams.get('jeton')!;
  const set = await postForm(
    app,
    '/equipe/invitation',
    { jeton: token, password: PASSWORD, confirmation: PASSWORD },
    undefined,
    { origin },
  );
  expect(set.statusCode).toBe(303);
}

function postOrGet(app: FastifyInstance, method: string, url: string, cookie?: string) {
  if (method === 'GET') return app.inject({ url, headers: cookie ? { cookie } : {} });
  return postForm(app, url, { _csrf: 'x' }, cookie);
}

export { csrfOf };
