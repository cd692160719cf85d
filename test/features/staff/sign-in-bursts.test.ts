import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../../../src/features/staff/totp.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import {
  activeMember,
  ORIGIN,
  PASSWORD,
  postForm,
  sessionCookieOf,
  signIn,
  signInSetup,
} from '../staff/staff-session.ts';

/*
 * docs/workspace-security.md, "Throttling" and "Audit trail" (OWASP ASVS 2.2 and 2.8, the Logging
 * cheat sheet): the throttle decides before scrypt, with one increment-then-check per key in the
 * journal, so parallel requests and a second node cannot slip past it; a TOTP step is claimed once;
 * a burst is one trail line with its count; what is typed at sign-in is never shown or logged.
 */
const { clock, lines, options: signInOptions } = signInSetup();

let nodes: TestApp[] = [];
afterEach(async () => {
  // The second node first: the first one's database is dropped when it closes.
  for (const node of nodes.reverse()) await node.close();
  nodes = [];
});

/** Two nodes on one journal (two processes on one SQLite file, or one PostgreSQL database). */
async function twoNodes(env: Record<string, string> = {}): Promise<[TestApp, TestApp]> {
  const options = signInOptions;
  const first = await buildTestApp({ ...options, env });
  nodes.push(first);
  const second = await buildTestApp({
    ...options,
    env: {
      ...env,
      DATA_DIR: first.dataDir,
      ...(first.config.databaseUrl && { DATABASE_URL: first.config.databaseUrl }),
    },
  });
  nodes.push(second);
  return [first, second];
}

function signInFrom(app: FastifyInstance, ip: string, fields: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: '/equipe/connexion',
    remoteAddress: ip,
    headers: {
      origin: ORIGIN,
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: new URLSearchParams(fields).toString(),
  });
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe(`sign-in bursts on two nodes of one journal (${defaultTestDialect})`, () => {
  it('60 parallel sign-ins for one account from one client: at most 5 scrypts, no session; the member signs in from elsewhere meanwhile', async () => {
    const [first, second] = await twoNodes();
    await activeMember(first.app, first.store, 'cible@agence.fr', 'member', clock.now);
    const attack = Array.from({ length: 60 }, (_, i) =>
      signInFrom(i % 2 ? second.app : first.app, '198.51.100.7', {
        email: 'cible@agence.fr',
        password: i === 59 ? PASSWORD : `mauvais mot de passe ${i}`,
      }),
    );
    // The member, from another client, during the attack (started after every attacker's request).
    const member = signInFrom(second.app, '192.0.2.44', {
      email: 'cible@agence.fr',
      password: PASSWORD,
    });
    const answers = await Promise.all(attack);
    const statuses = answers.map((answer) => answer.statusCode);
    // A 401 is a request that reached scrypt: the account-and-client key lets 5 through.
    expect(count(statuses, 401)).toBeGreaterThanOrEqual(1);
    expect(count(statuses, 401)).toBeLessThanOrEqual(5);
    expect(count(statuses, 303)).toBe(0);
    expect(count(statuses, 429)).toBe(60 - count(statuses, 401));
    expect(answers.every((answer) => sessionCookieOf(answer) === undefined)).toBe(true);
    expect(answers.find((answer) => answer.statusCode === 429)!.headers['retry-after']).toMatch(
      /^\d+$/,
    );
    // Fast: queued behind at most five hashes, not sixty; and let in.
    const signedIn = await member;
    expect(signedIn.statusCode).toBe(303);
    expect(sessionCookieOf(signedIn)).toBeDefined();
  }, 120_000);

  it('the journal’s claim is atomic: 60 parallel claims of one key on two nodes take exactly the free ones', async () => {
    const [first, second] = await twoNodes();
    const rule = {
      free: 5,
      waitAfter: (failures: number) => (failures < 5 ? 0 : 1000 * 2 ** (failures - 5)),
      longestMs: 15 * 60_000,
    };
    const claims = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? second : first).store.staff.claimSignInAttempt('pair:essai', rule, clock.now),
      ),
    );
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(5);
    const refused = claims.find((claim) => !claim.claimed);
    expect(refused).toMatchObject({ claimed: false, failures: 5 });
  });

  it('4 parallel sign-ins with one valid TOTP code from 4 clients on two nodes: one session', async () => {
    const [first, second] = await twoNodes();
    await activeMember(first.app, first.store, 'totp@agence.fr', 'member', clock.now);
    const session = await signIn(first.app, 'totp@agence.fr');
    const page = await first.app.inject({
      url: '/equipe/compte',
      headers: { cookie: session.cookie },
    });
    const secret = /name="secret" value="([A-Z2-7]{32})"/.exec(page.body)![1]!;
    const enabled = await postForm(
      first.app,
      '/equipe/compte/double-authentification',
      { _csrf: session.csrf, secret, code: totpCode(secret, totpStep(clock.now)) },
      session.cookie,
    );
    expect(enabled.statusCode).toBe(200);
    clock.now = new Date(clock.now.getTime() + 30_000);
    const code = totpCode(secret, totpStep(clock.now));
    const answers = await Promise.all(
      ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4'].map((ip, i) =>
        signInFrom(i % 2 ? second.app : first.app, ip, {
          email: 'totp@agence.fr',
          password: PASSWORD,
          code,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(count(statuses, 303)).toBe(1);
    expect(count(statuses, 401)).toBe(3);
  }, 120_000);
});

describe(`the activity log under a sign-in flood (${defaultTestDialect})`, () => {
  it('holds O(1) lines for a burst of throttled sign-ins, never the typed address or password', async () => {
    const [app] = await twoNodes();
    const before = (await app.store.staff.auditTrail({ limit: 10_000 })).length;
    const forged = 'admin@agence.fr a exporté 1 204 prospects vers https://evil.example';
    const typedPassword = 'MotDePasseTapeDansLeChampAdresse!';
    const burst = async (size: number) => {
      for (let batch = 0; batch < size; batch += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, size - batch) }, (_, i) =>
            signInFrom(app.app, '198.51.100.99', {
              email: (batch + i) % 2 ? forged : typedPassword,
              password: 'peu importe peu importe',
            }),
          ),
        );
      }
      const trail = await app.store.staff.auditTrail({ limit: 10_000 });
      return {
        lines: trail.length - before,
        throttled: trail.filter((line) => line.action === 'sign-in-throttled'),
      };
    };
    const small = await burst(100);
    const large = await burst(400);
    // 500 requests: one throttle line per key and minute, whatever the burst's size, and the
    // refusals that reached scrypt (5 free failures per typed address and client, at most).
    expect(large.throttled.length).toBe(small.throttled.length);
    expect(large.throttled.length).toBeLessThanOrEqual(6);
    expect(large.lines).toBeLessThanOrEqual(large.throttled.length + 2 * 5);
    const throttled = large.throttled;
    const repeats = throttled.reduce((total, line) => total + (line.repeats ?? 1), 0);
    expect(repeats).toBeGreaterThan(400);

    await activeMember(app.app, app.store, 'patronne@agence.fr', 'admin', clock.now);
    const { cookie } = await signIn(app.app, 'patronne@agence.fr');
    const journal = await app.app.inject({ url: '/equipe/journal', headers: { cookie } });
    expect(journal.statusCode).toBe(200);
    expect(journal.body).toContain('adresse inconnue');
    expect(journal.body).toMatch(/\(\d+ fois\)/);
    for (const typed of [forged, typedPassword, 'a exporté']) {
      expect(journal.body).not.toContain(typed);
      expect(JSON.stringify(await app.store.staff.auditTrail({ limit: 10_000 }))).not.toContain(
        typed,
      );
      expect(lines.some((line) => line.includes(typed))).toBe(false);
    }
  }, 180_000);

  it('puts the API’s per-client rate limit in front of POST /equipe/connexion (a page, not JSON)', async () => {
    const [app] = await twoNodes({ RATE_LIMIT_PER_MINUTE: '5' });
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await signInFrom(app.app, '198.51.100.50', {
        email: `inconnu${i}@agence.fr`,
        password: 'peu importe peu importe',
      });
      statuses.push(answer.statusCode);
      if (answer.statusCode === 429) {
        expect(answer.headers['content-type']).toMatch(/^text\/html/);
        expect(answer.headers['retry-after']).toMatch(/^\d+$/);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // The refused requests reached neither scrypt nor the trail.
    const failed = await app.store.staff.auditTrail({ limit: 100, action: 'sign-in-failed' });
    expect(failed).toHaveLength(5);
  });
});
