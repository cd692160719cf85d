import {
  serveIdentityOf,
  serveProcessIdentity,
  servedMailIdentity,
} from './features/site/served-identity.ts';
import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import type { Config } from './kernel/config.ts';
import { createDispatcherFor } from './wiring/dispatcher-setup.ts';
import type { Dispatcher, DispatcherTimings } from './features/delivery/dispatcher.ts';
import { startIdempotencySweep } from './features/intake/idempotency-sweep.ts';
import { createIntake } from './features/intake/intake.ts';
import { parseBusinessHours } from './features/inbox/business-hours.ts';
import { createNewsletter } from './features/newsletter/newsletter.ts';
import { createNewsletterLinks } from './features/newsletter/newsletter-links.ts';
import { registerApi } from './features/intake/api-plugin.ts';
import { createBotTrap } from './features/intake/forms/bot-trap.ts';
import { ignoreBodies } from './kernel/http/body-parsers.ts';
import { apiErrors } from './kernel/schemas/error-catalog.ts';
import { registerErrorHandler } from './kernel/http/error-handler.ts';
import { registerHealthRoutes } from './kernel/http/health-routes.ts';
import { createJournalHealth } from './kernel/http/journal-health.ts';
import { readFormPages } from './features/intake/forms/form-pages.ts';
import {
  newsletterPageHtml,
  registerNewsletterRoutes,
} from './features/newsletter/newsletter-routes.ts';
import { createMetrics, measuredDeliveries, registerMetrics } from './features/delivery/metrics.ts';
import {
  registerRequestIdHeader,
  registerRequestLog,
  requestIdFor,
} from './kernel/observability/logging.ts';
import { registerMcp } from './mcp/mcp-routes.ts';
import { ConfigurationError } from './kernel/lead/errors.ts';
import { forgetPerson } from './features/privacy/forget-person.ts';
import { createPrivacyLinks } from './features/privacy/privacy-links.ts';
import {
  privacyApiRoutes,
  privacyPageHtml,
  registerPrivacyPages,
} from './features/privacy/privacy-routes.ts';
import { createPrivacy } from './features/privacy/privacy-service.ts';
import { registerInboundRoutes } from './features/inbound/inbound-routes.ts';
import { registerOpenApiRoute } from './kernel/http/openapi-route.ts';
import { createFastPath } from './kernel/http/site/fast-path.ts';
import { pageFastAnswer } from './features/site/page-fast-path.ts';
import { createRefusedClients } from './kernel/http/limits/refusal-fast-path.ts';
import { registerSite } from './features/site/site-routes.ts';
import { watchSite } from './kernel/http/site/site-watch.ts';
import { rateLimitCounters } from './wiring/rate-limit-counters.ts';
import { sharedLimit } from './kernel/http/limits/rate-limit.ts';
import {
  DEFAULT_SERVER_TIMEOUTS,
  serverTimeoutOptions,
  type ServerTimeouts,
} from './kernel/http/limits/server-timeouts.ts';
import { validatorCompiler } from './kernel/http/validator.ts';
import { registerWorkspace } from './wiring/workspace-plugin.ts';
import type { ScryptCost } from './features/staff/secrets.ts';
import type { Provider } from './features/delivery/provider.ts';
import type { Store } from './kernel/journal/store.ts';

export interface AppDependencies {
  config: Config;
  store: Store;
  provider: Provider;
  logger?: FastifyServerOptions['logger'];
  /** docs/reliability.md: socket timeouts against slow clients; tests shorten them. */
  timeouts?: ServerTimeouts;
  /** docs/site.md: the built site (dist/) to serve from memory; without it only the API answers. */
  siteDir?: string;
  /**
   * docs/site.md "Serving": take a new build of siteDir as soon as `leadgate build` swaps it in
   * (src/kernel/http/site/site-watch.ts). On by default with a site.
   */
  watchSite?: boolean;
  /** docs/workspace-security.md: the workspace's clock (sessions, invitations); tests move it. */
  now?: () => Date;
  /** docs/workspace-security.md, "Passwords": tests pass a cheaper scrypt cost than OWASP's. */
  passwordCost?: ScryptCost;
  /** docs/delivery.md: the dispatcher's intervals; tests shorten them to drive rounds. */
  dispatcherTimings?: DispatcherTimings;
}

// Spec 1: CORS is open so browser-based agents can call the API; preflight needs no Origin check.
const CORS_OPTIONS = {
  origin: '*',
  methods: ['POST', 'OPTIONS'],
  // MCP-Protocol-Version: browser-based MCP clients send it on every POST to /mcp.
  allowedHeaders: [
    'Content-Type',
    'Accept',
    'Idempotency-Key',
    'X-Request-Id',
    'MCP-Protocol-Version',
  ],
  exposedHeaders: ['Retry-After', 'X-Request-Id'],
  maxAge: 86400,
  strictPreflight: false,
};

// The headers the hooks below give every answer, for the answers given before Fastify.
const EVERY_ANSWER = [
  'x-content-type-options',
  'nosniff',
  'access-control-allow-origin',
  CORS_OPTIONS.origin,
  'access-control-expose-headers',
  CORS_OPTIONS.exposedHeaders.join(', '),
];

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers accepted leads; `leadgate serve` starts its background loop. */
    dispatcher: Dispatcher;
  }
}

/** Builds the whole service (API, public files, site) without listening, so tests can inject requests. */
export async function buildApp({
  config,
  store,
  provider,
  logger = false,
  timeouts = DEFAULT_SERVER_TIMEOUTS,
  siteDir,
  watchSite: watching = true,
  now,
  passwordCost,
  dispatcherTimings,
}: AppDependencies) {
  // docs/reliability.md: Fastify refuses a declared Content-Length above the limit before reading a byte, and
  // stops reading a chunked body as soon as it passes the limit.
  const bodyLimit = config.limits.bodyBytes;
  const fastPath = createFastPath();
  const app = Fastify({
    serverFactory: fastPath.serverFactory,
    logger,
    bodyLimit,
    return503OnClosing: true,
    trustProxy: config.limits.trustProxy,
    genReqId: requestIdFor,
    // registerRequestLog writes one line per request instead (docs/operations.md).
    logController: new LogController({ disableRequestLogging: true }),
    ...serverTimeoutOptions(timeouts),
  });
  registerRequestIdHeader(app);
  registerRequestLog(app);
  // Every answer is labelled with its exact type: no browser may sniff a JSON error into HTML.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
  });
  app.setValidatorCompiler(validatorCompiler);
  // Only the API plugin and /mcp read bodies (their own parsers); everything else answers without.
  ignoreBodies(app);
  // docs/operations.md: a journal refusing writes makes the node not ready, logged once per cause,
  // and announced to the agency through the delivery alerts' channels when it lasts.
  const journalHealth = createJournalHealth(app.log, {
    announce: (alert) => provider.alertAgency(alert, AbortSignal.timeout(config.mail.timeoutMs)),
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'POST' && reply.statusCode < 400) journalHealth.wrote();
  });
  registerErrorHandler(app, bodyLimit, journalHealth);

  await app.register(cors, CORS_OPTIONS);

  const metrics = createMetrics(store.deliveries);
  const refusals = createRefusedClients({
    perMinute: config.limits.ratePerMinute,
    trustProxy: config.limits.trustProxy,
    everyAnswer: EVERY_ANSWER,
    onAnswered: (route) => metrics.requests.inc({ route, method: 'POST', status: '429' }),
  });
  const counters = await rateLimitCounters(app, config);
  const rateLimit = {
    perMinute: config.limits.ratePerMinute,
    allow: config.limits.rateLimitAllow,
    ...counters.settings,
    refusals,
  };
  registerHealthRoutes(app, store, () => [counters.health?.warning()], journalHealth);
  registerMetrics(app, metrics, config.metricsToken);
  const deliveries = measuredDeliveries(store.deliveries, metrics);
  const dispatcher = createDispatcherFor(
    config,
    store,
    provider,
    app.log,
    deliveries,
    dispatcherTimings,
  );
  app.decorate('dispatcher', dispatcher);
  const intake = createIntake({
    deliveries,
    newsletter: { doubleOptIn: config.newsletterDoubleOptIn, journal: store.newsletter },
    confirmationCap: {
      sends: store.confirmations,
      intervalMs: config.limits.confirmationIntervalMs,
    },
    dispatcher,
    mode: config.delivery.mode,
    businessHours: parseBusinessHours(config.workspace.businessHours),
  });
  const formPages = siteDir ? readFormPages(siteDir) : undefined;
  const botTrap = createBotTrap(await store.secret('form-token'), {
    minFillMs: config.limits.formMinFillMs,
    maxAgeMs: config.limits.formTokenMaxAgeMs,
    maxPosts: config.limits.formTokenMaxPosts,
    ...(now && { now: () => now().getTime() }),
  });
  const newsletter = createNewsletter({
    journal: store.newsletter,
    links: createNewsletterLinks(config.siteUrl, () => store.newsletter.signingKey()),
    destinations: dispatcher.destinations,
    // DELIVERY=sync: the list is updated before the page says so; queued: by the loop, at once.
    handOff: async (leadIds) => {
      if (config.delivery.mode === 'sync') {
        for (const leadId of leadIds) await dispatcher.deliverLead(leadId);
      }
      dispatcher.wake();
    },
  });
  const privacy = createPrivacy({
    register: store.privacyRequests,
    people: store.people,
    links: createPrivacyLinks(config.siteUrl, () => store.secret('privacy-links')),
    send: async (message, ref, signal) => {
      if (!provider.sendMail) throw new ConfigurationError(`${provider.name} sends no e-mail`);
      return provider.sendMail(message, ref, signal);
    },
    forget: (address) =>
      forgetPerson({ store, provider, address, timeoutMs: config.mail.timeoutMs }),
    unsubscribe: (lead) => newsletter.withdraw(lead),
    cap: {
      sends: store.confirmations,
      intervalMs: config.limits.confirmationIntervalMs,
      domainPerHour: config.limits.confirmationDomainPerHour,
    },
    mail: {
      from: config.mail.from,
      agencyEmail: config.mail.agencyEmail,
      siteUrl: config.siteUrl,
      identity: servedMailIdentity,
    },
    timeoutMs: config.mail.timeoutMs,
  });
  const privacyLimit = sharedLimit(rateLimit, 'privacy');
  await registerApi(app, {
    intake,
    bodyLimit,
    rateLimit,
    botTrap,
    ...(formPages && { formPages }),
    routes: [privacyApiRoutes(privacy, privacyLimit)],
  });
  const mcpSite = await registerMcp(app, {
    intake,
    privacy,
    privacyLimit,
    siteUrl: config.siteUrl,
    siteDir,
    rateLimit,
  });
  const newsletterPages = newsletterPageHtml(siteDir);
  await registerNewsletterRoutes(app, newsletter, newsletterPages);
  await registerPrivacyPages(app, privacy, privacyPageHtml(siteDir));
  const sweep = startIdempotencySweep(store, {
    onError: (error) => app.log.error({ err: error }, 'idempotency keys: sweep failed'),
  });
  app.addHook('onClose', async () => sweep.stop());
  registerOpenApiRoute(app, config.siteUrl);
  await registerInboundRoutes(app, { ...config.inbound, store, now: now ?? (() => new Date()) });
  await registerWorkspace(app, {
    // The API's per-client limit (its counters, not its refusal fast path, which answers JSON).
    rateLimit: { ...rateLimit, refusals: undefined },
    config,
    store,
    dispatcher,
    provider,
    siteDir,
    now,
    passwordCost,
  });
  const site = siteDir ? registerSite(app, siteDir, { botTrap }) : undefined;
  // The e-mails and the workspace speak with the identity of the site served (docs/site.md, "Serving").
  if (!(siteDir && serveIdentityOf(siteDir))) serveProcessIdentity();
  if (site && siteDir && watching) {
    // A rebuild takes effect without a restart: pages, files, the pages of refused forms and of
    // newsletter links, the MCP resources, the identity, read again whole (docs/site.md, "Serving").
    const watcher = watchSite(siteDir, {
      onBuild: (builtAt) => {
        site.reload();
        serveIdentityOf(siteDir);
        formPages?.reload();
        mcpSite.reload();
        Object.assign(newsletterPages, newsletterPageHtml(siteDir));
        app.log.info({ builtAt }, 'site: new build served');
      },
      onError: (error) => app.log.warn({ err: error }, 'site: new build not readable yet'),
    });
    app.addHook('onClose', async () => watcher.close());
  }
  fastPath.answerWith(
    site ? [pageFastAnswer(site.files, EVERY_ANSWER), refusals.answer] : [refusals.answer],
  );
  // While closing, every request goes through Fastify, which answers 503 and closes the connection.
  app.addHook('preClose', async () => fastPath.answerWith([]));

  // Spec 7: an unknown path outside the API plugin (which answers its own) is the site's 404 page,
  // or a JSON not_found when no site is served.
  app.setNotFoundHandler(async (request, reply) => {
    if (site) return site.notFound(request, reply);
    throw apiErrors.notFound(request.method, request.url.split('?')[0] ?? request.url);
  });
  return app;
}
