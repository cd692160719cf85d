import cors from '@fastify/cors';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import { createIdempotentIntake } from './domain/idempotent-intake.ts';
import { createIntake } from './domain/intake.ts';
import { registerBodyParsers } from './http/body-parsers.ts';
import { apiErrors } from './http/error-catalog.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { registerHealthRoutes } from './http/health-routes.ts';
import { registerLeadRoutes } from './http/lead-routes.ts';
import { registerRequestIdHeader, requestIdFor } from './http/logging.ts';
import { registerOpenApiRoute } from './http/openapi-route.ts';
import { registerRateLimit } from './http/rate-limit.ts';
import { registerSite } from './http/site-routes.ts';
import { rateLimitCounters } from './http/rate-limit-store.ts';
import {
  DEFAULT_SERVER_TIMEOUTS,
  serverTimeoutOptions,
  type ServerTimeouts,
} from './http/server-timeouts.ts';
import { validatorCompiler } from './http/validator.ts';
import type { Provider } from './providers/provider.ts';
import type { Store } from './store/store.ts';

export interface AppDependencies {
  config: Config;
  store: Store;
  provider: Provider;
  logger?: FastifyServerOptions['logger'];
  /** Issue 4: socket timeouts against slow clients; tests shorten them. */
  timeouts?: ServerTimeouts;
  /** Issue 3: the built site (dist/) to serve from memory; without it only the API answers. */
  siteDir?: string;
}

/** Builds the whole service (API, public files, site) without listening, so tests can inject requests. */
export async function buildApp({
  config,
  store,
  provider,
  logger = false,
  timeouts = DEFAULT_SERVER_TIMEOUTS,
  siteDir,
}: AppDependencies) {
  // Issue 4: Fastify refuses a declared Content-Length above the limit before reading a byte, and
  // stops reading a chunked body as soon as it passes the limit.
  const bodyLimit = config.limits.bodyBytes;
  const app = Fastify({
    logger,
    bodyLimit,
    return503OnClosing: true,
    trustProxy: config.limits.trustProxy,
    genReqId: requestIdFor,
    ...serverTimeoutOptions(timeouts),
  });
  registerRequestIdHeader(app);
  app.setValidatorCompiler(validatorCompiler);
  registerBodyParsers(app);
  registerErrorHandler(app, bodyLimit);

  // Spec 1: CORS is open so browser-based agents can call the API; preflight needs no Origin check.
  await app.register(cors, {
    origin: '*',
    methods: ['POST', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Accept', 'Idempotency-Key', 'X-Request-Id'],
    exposedHeaders: ['Retry-After', 'X-Request-Id'],
    maxAge: 86400,
    strictPreflight: false,
  });

  await registerRateLimit(app, {
    perMinute: config.limits.ratePerMinute,
    sparesLoopback: config.limits.rateLimitSparesLoopback,
    ...rateLimitCounters(app, config, store),
  });
  registerHealthRoutes(app, store);
  const intake = createIntake({ store, provider, timeoutMs: config.mail.timeoutMs });
  registerLeadRoutes(
    app,
    createIdempotentIntake({ intake, store, timeoutMs: config.mail.timeoutMs }),
  );
  registerOpenApiRoute(app, config.siteUrl);
  const site = siteDir ? registerSite(app, siteDir) : undefined;

  // Spec 7: unknown /api/ paths are a JSON not_found; any other unknown path is the site's 404 page.
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    const isApi = path === '/api' || path.startsWith('/api/');
    if (site && !isApi) return site.notFound(request, reply);
    throw apiErrors.notFound(request.method, path);
  });
  return app;
}
