import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HTML_SECURITY_HEADERS } from '../../kernel/http/site/site-files.ts';
import { html } from './html.ts';
import { csrfTokenOf, readCookie, type CookiePolicy } from './session-cookie.ts';
import { resumeSession, staffOf, type SessionSettings } from './sessions.ts';
import type { WorkspaceContext } from './workspace-context.ts';
import { workspacePage } from './workspace-page.ts';

export const SIGN_IN_PATH = '/equipe/connexion';

/** docs/workspace-security.md, "Every page": never cached, never indexed, the site's strict CSP. */
export const WORKSPACE_HEADERS: Record<string, string> = {
  ...HTML_SECURITY_HEADERS,
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  // Lead ids are in the workspace's addresses: no other site learns them from a Referer.
  'referrer-policy': 'same-origin',
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Where to come back after signing in: a workspace path of safe characters only (no open redirect). */
export function returnPath(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/equipe(\/[A-Za-z0-9._~-]+)*\/?$/.test(value)
    ? value
    : undefined;
}

/**
 * Where a form sends back to: a workspace path and query of this site, rebuilt by the URL parser
 * (so a CR, LF or space comes out percent-encoded and a `//host` or `\\host` is refused), or
 * undefined.
 */
export function sameOriginPath(value: string): string | undefined {
  const base = 'https://workspace.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return undefined;
  }
  if (!value.startsWith('/') || url.origin !== base) return undefined;
  if (url.pathname !== '/equipe' && !url.pathname.startsWith('/equipe/')) return undefined;
  return `${url.pathname}${url.search}`;
}

export function refusalPage(reply: FastifyReply, status: number, title: string, text: string) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      workspacePage({
        title,
        body: html`<p>${text}</p>
          <p><a href="/equipe">Retour à l’espace équipe</a></p>`,
      }).value,
    );
}

/**
 * OWASP CSRF cheat sheet, "Fetch Metadata" and "Verifying origin": a state-changing request must
 * come from a page of this site. A browser that sends Sec-Fetch-Site must say same-origin; else its
 * Origin must be the site's (SITE_URL) or the address it was sent to; with neither, it is refused.
 */
export function sameOrigin(request: FastifyRequest, siteOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  if (!origin) return false;
  return origin === siteOrigin || origin === `${request.protocol}://${request.host}`;
}

function sameToken(sent: unknown, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(sent), Buffer.from(expected));
}

/**
 * The session guard of every workspace route (docs/workspace-security.md, "Every page"): headers
 * first, then the origin of a POST, then the session (a 303 to the sign-in page without one: never
 * data), then the role and the admin-required second factor; after the body is read, the `_csrf`
 * token of a POST.
 */
export function registerGuard(
  scope: FastifyInstance,
  context: WorkspaceContext,
  policy: CookiePolicy,
  settings: SessionSettings,
): void {
  const siteOrigin = new URL(context.config.siteUrl).origin;
  scope.addHook('onRequest', async (request, reply) => {
    reply.headers(WORKSPACE_HEADERS);
    if (!SAFE_METHODS.has(request.method) && !sameOrigin(request, siteOrigin)) {
      request.log.warn('workspace: cross-origin request refused');
      return refusalPage(
        reply,
        403,
        'Requête refusée',
        'Cette action doit venir d’une page de l’espace équipe.',
      );
    }
    const route = request.routeOptions.config.workspace ?? {};
    const token = readCookie(request.headers.cookie, policy.name);
    const account = token
      ? await resumeSession(context.store, token, context.now(), settings)
      : undefined;
    if (account && token) {
      request.staff = staffOf(account);
      request.csrfToken = csrfTokenOf(token);
    }
    if (route.public) return;
    if (!account) {
      const back = request.method === 'GET' ? returnPath(request.url.split('?')[0]) : undefined;
      // returnPath allows only path characters: the value goes into the query as it is.
      const query = back && back !== '/equipe' ? `?suite=${back}` : '';
      return reply.redirect(`${SIGN_IN_PATH}${query}`, 303);
    }
    if (account.totpRequired && !account.totpSecret && !route.beforeSecondFactor) {
      return reply.redirect('/equipe/compte', 303);
    }
    if (route.adminOnly && account.role !== 'admin') {
      return refusalPage(
        reply,
        403,
        'Réservé aux administrateurs',
        'Cette page est réservée aux administrateurs de l’espace équipe.',
      );
    }
  });
  scope.addHook('preHandler', async (request, reply) => {
    // Public forms (sign-in, invitation) have no session yet: the origin check above guards them.
    if (SAFE_METHODS.has(request.method) || request.routeOptions.config.workspace?.public) return;
    const sent = (request.body as Record<string, unknown> | undefined)?._csrf;
    if (!request.csrfToken || !sameToken(sent, request.csrfToken)) {
      request.log.warn('workspace: missing or wrong CSRF token');
      return refusalPage(
        reply,
        403,
        'Requête refusée',
        'Le formulaire a expiré : rechargez la page et recommencez.',
      );
    }
  });
}
