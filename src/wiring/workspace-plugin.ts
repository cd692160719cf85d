import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../kernel/config.ts';
import type { Dispatcher } from '../features/delivery/dispatcher.ts';
import { deliveryNotice } from '../features/delivery/index.ts';
import type { Provider } from '../features/delivery/provider.ts';
import type { Store } from '../kernel/journal/store.ts';
import { FORM_MEDIA_TYPE } from '../kernel/http/body-parsers.ts';
import { registerRateLimit, type RateLimitSettings } from '../kernel/http/limits/rate-limit.ts';
import { ApiError } from '../kernel/schemas/error-catalog.ts';
import { hashOf, readManifest } from '../kernel/http/site/site-files.ts';
import { WORKSPACE_PATH } from '../kernel/schemas/workspace-paths.ts';
import { registerAnswerRoutes } from '../features/answers/answer-routes.ts';
import { registerAccountRoutes } from '../features/staff/account-routes.ts';
import { registerDashboardRoutes } from '../features/inbox/dashboard-routes.ts';
import { registerInboxRoutes } from '../features/inbox/inbox-routes.ts';
import { workspaceCounts } from '../features/inbox/index.ts';
import { registerLeadPageRoutes } from '../features/inbox/lead-page-routes.ts';
import { registerUnmatchedMessageRoutes } from '../features/inbox/unmatched-message-routes.ts';
import { registerInvitationRoutes } from '../features/staff/invitation-routes.ts';
import { registerJournalRoutes } from '../features/staff/journal-routes.ts';
import { registerOptOutRoutes } from '../features/newsletter/opt-out-routes.ts';
import { registerPeopleRoutes } from '../features/privacy/people-routes.ts';
import { registerRegisterRoutes } from '../features/privacy/register-routes.ts';
import { scryptPasswords, type ScryptCost } from '../features/staff/secrets.ts';
import { cookiePolicy } from '../features/staff/session-cookie.ts';
import { registerSignInRoutes } from '../features/staff/sign-in-routes.ts';
import { createSignInThrottle } from '../features/staff/sign-in-throttle.ts';
import { auditEntry } from '../features/staff/staff-actions.ts';
import { registerTeamRoutes } from '../features/staff/team-routes.ts';
import type { WorkspaceContext, WorkspacePages } from '../features/staff/workspace-context.ts';
import { refusalPage, registerGuard, SIGN_IN_PATH } from '../features/staff/workspace-guard.ts';
import { WORKSPACE_STYLESHEET } from '../features/staff/workspace-page.ts';
import { WORKSPACE_CSS } from '../features/staff/workspace-styles.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the workspace scope (method, URL pattern): what the guard must cover. */
    workspaceRoutes: readonly { method: string; url: string }[];
  }
}

export interface WorkspaceDependencies {
  config: Config;
  store: Store;
  dispatcher: Dispatcher;
  provider: Provider;
  /** docs/site.md: the built site, whose stylesheet the workspace shares. */
  siteDir?: string;
  now?: () => Date;
  /**
   * docs/workspace-security.md, "Passwords": OWASP's scrypt cost unless a test passes a cheaper
   * one.
   */
  passwordCost?: ScryptCost;
  /**
   * docs/workspace-security.md, "Throttling": the API's per-client limit, on the public POST
   * routes.
   */
  rateLimit?: RateLimitSettings;
}

/** The headers @fastify/cors gives the API: a workspace answer is for this site only. */
const CORS_HEADERS = [
  'access-control-allow-origin',
  'access-control-expose-headers',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-max-age',
];

/**
 * docs/workspace-security.md, "Adding a page": every set of pages of the workspace, in navigation
 * order.
 */
const PAGES: readonly WorkspacePages[] = [
  registerInboxRoutes,
  registerLeadPageRoutes,
  registerUnmatchedMessageRoutes,
  registerAnswerRoutes,
  registerPeopleRoutes,
  registerRegisterRoutes,
  registerOptOutRoutes,
  registerDashboardRoutes,
  registerTeamRoutes,
  registerJournalRoutes,
  registerAccountRoutes,
];

/** A form post is a few fields: 64 KB is ample, and refuses a flood before it is read. */
const FORM_BODY_LIMIT = 64 * 1024;

/** The site's built stylesheet (dist/assets/site.*.css), or its source without a built site. */
function siteStylesheet(siteDir: string | undefined): string {
  if (siteDir) {
    const entry = readManifest(siteDir).files.find((file) =>
      /^\/assets\/site\.[^/]*\.css$/.test(file.path),
    );
    if (entry) return readFileSync(join(siteDir, entry.file), 'utf8');
  }
  return '';
}

/**
 * The agency's workspace under /equipe (docs/workspace.md): its own scope, with a urlencoded body
 * parser, the session guard on every route, and the pages of PAGES.
 */
export async function registerWorkspace(
  app: FastifyInstance,
  deps: WorkspaceDependencies,
): Promise<void> {
  const now = deps.now ?? (() => new Date());
  const context: WorkspaceContext = {
    config: deps.config,
    store: deps.store,
    dispatcher: deps.dispatcher,
    provider: deps.provider,
    passwords: scryptPasswords(deps.passwordCost),
    signInThrottle: createSignInThrottle(deps.store),
    now,
    async recordStaffAction(staff, action, target = null, detail = null) {
      await deps.store.staff.record(auditEntry(staff, action, now(), target, detail));
    },
  };
  const policy = cookiePolicy(deps.config.siteUrl);
  const settings = {
    idleMs: deps.config.workspace.sessionIdleMs,
    maxMs: deps.config.workspace.sessionMaxMs,
  };
  const css = `${siteStylesheet(deps.siteDir)}\n${WORKSPACE_CSS}`;
  const cssEtag = `"${hashOf(css)}"`;

  const routes: { method: string; url: string }[] = [];
  app.decorate('workspaceRoutes', routes);
  await app.register(
    async (scope) => {
      // The security tests walk every route of the scope, pages added later included.
      scope.addHook('onRoute', (route) => {
        for (const method of [route.method].flat()) {
          if (method !== 'HEAD') routes.push({ method, url: route.url });
        }
      });
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser(
        FORM_MEDIA_TYPE,
        { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
        (_request, body, done) => {
          const fields: Record<string, string | string[]> = Object.create(null);
          for (const [name, value] of new URLSearchParams(body as string)) {
            const seen = fields[name];
            fields[name] =
              seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
          }
          done(null, fields);
        },
      );
      scope.addContentTypeParser(
        '*',
        { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT },
        (_request, _body, done) => done(null, undefined),
      );
      // docs/workspace-security.md, "Every page": no CORS header (the API's `*` is for the API).
      scope.addHook('onRoute', (route) => {
        // @fastify/cors reads `cors: false` in a route's config (its types do not declare it).
        route.config = { ...route.config, cors: false } as typeof route.config;
      });
      scope.addHook('onSend', async (_request, reply) => {
        for (const header of CORS_HEADERS) reply.removeHeader(header);
      });
      if (deps.rateLimit) {
        await registerRateLimit(scope, {
          ...deps.rateLimit,
          only: (route) => route.config?.workspace?.public === true,
        });
      }
      scope.setErrorHandler((error, request, reply) => {
        // The limiter's refusal, as a page: the other errors go to the app's handler.
        if (!(error instanceof ApiError) || error.code !== 'rate_limited') throw error;
        request.log.warn('workspace: rate limited');
        reply.headers(error.headers);
        return refusalPage(reply, 429, 'Trop de demandes', `${error.message} ${error.hint}`);
      });
      registerGuard(scope, context, policy, settings);
      // docs/workspace.md, « La boîte de réception » and « Bandeau »: every page of a signed-in
      // member shows the counts and, while a delivery cause is open, says so.
      scope.addHook('preHandler', async (request) => {
        if (request.staff && request.method === 'GET') {
          const [counts, open] = await Promise.all([
            workspaceCounts(deps.store),
            deps.store.alerts.open(),
          ]);
          request.workspaceChrome = { counts, notice: deliveryNotice(open, now()) };
        }
      });

      scope.get(
        WORKSPACE_STYLESHEET.slice(WORKSPACE_PATH.length),
        { config: { workspace: { public: true } } },
        async (request, reply) => {
          reply.header('cache-control', 'no-cache').header('etag', cssEtag);
          if (request.headers['if-none-match'] === cssEtag) return reply.code(304).send();
          return reply.type('text/css; charset=utf-8').send(css);
        },
      );
      // A preflight to the workspace is not answered by @fastify/cors (its route has `cors: false`).
      scope.options('/*', async (_request, reply) => reply.code(404).send());
      registerSignInRoutes(scope, context, policy, settings);
      registerInvitationRoutes(scope, context);
      for (const pages of PAGES) await pages(scope, context);

      // An unknown workspace address: the sign-in page without a session, a 404 page with one.
      scope.setNotFoundHandler(async (request, reply) => {
        if (!request.staff) return reply.redirect(SIGN_IN_PATH, 303);
        return refusalPage(
          reply,
          404,
          'Page introuvable',
          'Cette page n’existe pas dans l’espace équipe.',
        );
      });
    },
    { prefix: WORKSPACE_PATH },
  );
}
