import type { FastifyServerOptions } from 'fastify';

/** docs/reliability.md: how long a client may take before the server gives its socket back. */
export interface ServerTimeouts {
  /** Whole request head (slowloris drips header lines forever: this cuts it). */
  headersMs: number;
  /** Whole request, head and body (a body dripped byte by byte). */
  requestMs: number;
  /** Socket with no traffic at all; above PROVIDER_TIMEOUT_MS, so a slow hand-off is not cut. */
  idleMs: number;
  /** Idle keep-alive socket between two requests. */
  keepAliveMs: number;
  /** How often Node checks the two first ones (it only checks on this tick). */
  checkIntervalMs: number;
}

export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  requestMs: 30_000,
  idleMs: 60_000,
  // Above the 60 s idle timeout of common load balancers, so they never reuse a socket we closed.
  keepAliveMs: 72_000,
  checkIntervalMs: 1_000,
};

/**
 * Fastify's own defaults turn Node's request timeout off (0) and leave idle sockets open forever;
 * these options give every stage of a connection a bound.
 */
export function serverTimeoutOptions(timeouts: ServerTimeouts): Pick<
  FastifyServerOptions,
  'connectionTimeout' | 'keepAliveTimeout' | 'requestTimeout'
> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
  };
}
