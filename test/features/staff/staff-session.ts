import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import type { StaffRole } from '../../../src/features/staff/staff.ts';
import type { Store } from '../../../src/kernel/journal/store.ts';
import { inviteStaff } from '../../../src/features/staff/invitations.ts';
import { loggerOptions } from '../../../src/kernel/observability/logging.ts';

/** The site's origin in test apps (SITE_URL's default): what a same-origin form post carries. */
export const ORIGIN = 'http://localhost:3000';
export const PASSWORD = 'une phrase de passe assez longue';

export function form(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, item);
  }
  return params.toString();
}

/** A browser's same-origin form post (Sec-Fetch-Site and Origin, as Chromium sends them). */
export function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string | string[]>,
  cookie?: string,
  headers: Record<string, string> = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
) {
  return app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
      ...(cookie && { cookie }),
    },
    payload: form(fields),
  });
}

/** `name=value` of the session cookie a response sets (undefined if none). */
export function sessionCookieOf(response: LightMyRequestResponse): string | undefined {
  const header = response.headers['set-cookie'];
  const line = (Array.isArray(header) ? header : [header]).find((value) =>
    value?.includes('leadgate_equipe='),
  );
  return line?.split(';')[0];
}

export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no _csrf field on the page');
  return match[1]!;
}

/** An invitation (as `leadgate team add` makes it), followed: the account has its password. */
export async function activeMember(
  app: FastifyInstance,
  store: Store,
  email: string,
  role: StaffRole = 'admin',
  now = new Date(),
  password = PASSWORD,
): Promise<void> {
  const { link } = await inviteStaff(store, {
    email,
    role,
    siteUrl: ORIGIN,
    now,
    invitedBy: null,
  });
  const token = new URL(link).searchParams.get('jeton')!;
  const set = await postForm(app, '/equipe/invitation', {
    jeton: token,
    name: email.split('@')[0]!,
    password,
    confirmation: password,
  });
  if (set.statusCode !== 303) throw new Error(`password not set: ${set.statusCode} ${set.body}`);
}

/** Signs in and returns the session cookie (`name=value`) and the page's CSRF token. */
export async function signIn(
  app: FastifyInstance,
  email: string,
  password = PASSWORD,
  code?: string,
): Promise<{ cookie: string; csrf: string }> {
  const response = await postForm(app, '/equipe/connexion', {
    email,
    password,
    ...(code && { code }),
  });
  const cookie = sessionCookieOf(response);
  if (response.statusCode !== 303 || !cookie) {
    throw new Error(`sign-in refused: ${response.statusCode}`);
  }
  const home = await app.inject({ url: '/equipe', headers: { cookie } });
  return { cookie, csrf: csrfOf(home.body) };
}

/**
 * A cheap scrypt for the tests that sign in many times (docs/workspace-security.md, "Passwords"):
 * the production cost is checked by test/cli/team.test.ts and the browser test, which use the
 * default.
 */
export const FAST_SCRYPT = { N: 2 ** 10, r: 8, p: 1 };

/**
 * What a sign-in test's app runs with: the cheap scrypt, a clock the test moves (`clock.now`), and
 * the log lines it writes kept in `lines` (the audit trail, the refusals).
 */
export function signInSetup(start = new Date('2026-11-30T09:00:00Z')) {
  const clock = { now: start };
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const options = {
    passwordCost: FAST_SCRYPT,
    now: () => clock.now,
    logger: loggerOptions({ logLevel: 'info', secrets: [] }, logStream),
  };
  return { clock, lines, options };
}
