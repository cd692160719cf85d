import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { apiErrors } from './error-catalog.ts';

export interface RateLimitSettings {
  /** Requests per client address and minute on each POST endpoint; 0 turns the limiter off. */
  perMinute: number;
  /**
   * The default limit guards against the internet, not against this machine: health probes, local
   * tools and tests, or a reverse proxy not yet declared in TRUST_PROXY (which would otherwise make
   * every visitor one throttled client). A limit set explicitly applies to every address.
   */
  sparesLoopback?: boolean;
  /** Where the counters live; in-memory (one node) when absent. Issue 5 passes a shared store. */
  store?: RateLimitPluginOptions['store'];
  redis?: RateLimitPluginOptions['redis'];
}

/**
 * Issue 4: every POST under /api/ is limited per client address (request.ip, which honours
 * TRUST_PROXY), before its body is read. Pages, /openapi.json and the health checks are not.
 * Call before the routes are declared: the limiter attaches itself to each route as it is added.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  { perMinute, sparesLoopback = false, store, redis }: RateLimitSettings,
): Promise<void> {
  if (perMinute <= 0) return;
  // Runs before the plugin's own onRoute hook (added below), which then gives each of these
  // routes its own counter per address: 30 contacts and 30 subscriptions a minute, not 30 in all.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !route.url.startsWith('/api/')) return;
    route.config = { ...route.config, rateLimit: route.config?.rateLimit ?? {} };
  });
  await app.register(rateLimit, {
    global: false,
    max: perMinute,
    timeWindow: 60_000,
    ...(sparesLoopback && { allowList: (request) => isLoopback(request.ip) }),
    ...(store && { store }),
    ...(redis && { redis }),
    // The thrown ApiError reaches the one error handler, which writes the ErrorResponse and Retry-After.
    errorResponseBuilder: (_request, context) =>
      apiErrors.rateLimited(Math.max(1, Math.ceil(context.ttl / 1000))),
  });
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}
