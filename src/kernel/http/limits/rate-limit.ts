import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import type { FastifyInstance, RouteOptions } from 'fastify';
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
  /** The POST routes limited (all of the scope's by default): the workspace limits its public ones. */
  only?: (route: RouteOptions) => boolean;
}

/**
 * Every POST route declared in `scope` (the API plugin, /mcp) is limited per client (request.ip,
 * which honours TRUST_PROXY; an IPv6 client per /64, the block one subscriber holds), before its
 * body is read. Pages, /openapi.json and the health checks live outside those scopes. Call before
 * the scope's routes are declared: the limiter attaches itself to each route as it is added.
 */
export async function registerRateLimit(
  scope: FastifyInstance,
  { perMinute, allow = [], store, refusals, only = () => true }: RateLimitSettings,
): Promise<void> {
  if (perMinute <= 0) return;
  // Runs before the plugin's own onRoute hook (added below), which then gives each of these
  // routes its own counter per address: 30 contacts and 30 subscriptions a minute, not 30 in all.
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST') || !only(route)) return;
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

/** Says how long a client must wait before its next request of a shared limit (0: now). */
export type SharedLimit = (ip: string) => Promise<number>;

/**
 * docs/reliability.md, "Hostile input": one per-client counter for an action reached by several
 * routes (the privacy request: POST /api/privacy from the API and the site's form, and the MCP
 * tool), in the limiter's own store (memory, the database or Redis), under a key of its own: the
 * action gets `perMinute` per client in all, not that many per route.
 */
export function sharedLimit(
  { perMinute, allow = [], store }: RateLimitSettings,
  name: string,
): SharedLimit {
  if (perMinute <= 0) return async () => 0;
  const allowed = matcherFor(allow);
  const windowMs = 60_000;
  const counters = store
    ? new store({ timeWindow: windowMs, max: perMinute })
    : new LocalStore(false, false);
  return (ip) => {
    if (allowed(ip)) return Promise.resolve(0);
    return new Promise((resolve, reject) => {
      counters.incr(
        `shared ${name} ${clientKey(ip)}`,
        (error, result) => {
          if (error || !result) return reject(error ?? new Error('no count'));
          resolve(result.current > perMinute ? Math.max(1, Math.ceil(result.ttl / 1000)) : 0);
        },
        windowMs,
        perMinute,
      );
    });
  };
}
