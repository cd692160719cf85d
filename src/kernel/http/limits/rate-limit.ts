import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { clientKey, matcherFor } from './client-address.ts';
import { apiErrors } from '../../schemas/error-catalog.ts';
import { createRefusalLog } from '../../observability/refusal-log.ts';
import type { RefusedClients } from './refusal-fast-path.ts';

export interface RateLimitSettings {
  /** Requests per client and minute on each POST endpoint; 0 turns the limiter off. */
  perMinute: number;
  /**
   * RATE_LIMIT_ALLOW: addresses/CIDRs the limit spares. Nothing is spared by default, loopback
   * included: a reverse proxy on the same host not declared in TRUST_PROXY would otherwise turn the
   * limit off for every visitor (docs/reliability.md, "Hostile input").
   */
  allow?: readonly string[];
  /** Where the counters live; in-memory (one node) when absent (docs/deployment.md: shared store). */
  store?: RateLimitPluginOptions['store'];
  /** Where a refusal is recorded, so the client's next POSTs are refused before Fastify. */
  refusals?: RefusedClients;
}

/**
 * Every POST route declared in `scope` (the API plugin, /mcp) is limited per client (request.ip,
 * which honours TRUST_PROXY; an IPv6 client per /64, the block one subscriber holds), before its
 * body is read. Pages, /openapi.json and the health checks live outside those scopes. Call before
 * the scope's routes are declared: the limiter attaches itself to each route as it is added.
 */
export async function registerRateLimit(
  scope: FastifyInstance,
  { perMinute, allow = [], store, refusals }: RateLimitSettings,
): Promise<void> {
  if (perMinute <= 0) return;
  // Runs before the plugin's own onRoute hook (added below), which then gives each of these
  // routes its own counter per address: 30 contacts and 30 subscriptions a minute, not 30 in all.
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.config = { ...route.config, rateLimit: route.config?.rateLimit ?? {} };
  });
  const allowed = matcherFor(allow);
  const windowMs = 60_000;
  const refusal = createRefusalLog(scope, scope.log, windowMs);
  await scope.register(rateLimit, {
    global: false,
    max: perMinute,
    timeWindow: windowMs,
    onExceeded: refusal.onExceeded,
    keyGenerator: (request) => clientKey(request.ip),
    ...(allow.length > 0 && { allowList: (request) => allowed(request.ip) }),
    ...(store && { store }),
    // The thrown ApiError reaches the one error handler, which writes the ErrorResponse and Retry-After.
    errorResponseBuilder: (request, context) => {
      refusals?.record(
        request.routeOptions.url ?? request.url,
        clientKey(request.ip),
        context.ttl,
        refusal.count,
      );
      return apiErrors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000)));
    },
  });
}
