import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Store } from '../store/store.ts';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

interface RouteInfo {
  method?: string | string[];
  url?: string;
}

/**
 * Issue 5: @fastify/rate-limit counters kept in the shared database (Store.hit), so N nodes behind a
 * load balancer count one client's requests together instead of N times over. Each route counts apart,
 * as with the plugin's own stores.
 */
export function databaseRateLimitStore(store: Store): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      store.hit(`${this.prefix}${key}`, timeWindow).then(
        ({ hits, resetAt }) =>
          callback(null, { current: hits, ttl: Math.max(0, resetAt.getTime() - Date.now()) }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: RouteInfo }).routeInfo ?? {};
      return new DatabaseRateLimitStore(routeOptions, `${route.method ?? ''} ${route.url ?? ''} `);
    }
  }
  return DatabaseRateLimitStore;
}

/**
 * Where the counters live: in memory for one node on SQLite (no extra write per request), in the
 * shared database as soon as DATABASE_URL makes several nodes possible.
 */
export function rateLimitCounters(
  config: { databaseUrl: string | undefined },
  store: Store,
): { store?: FastifyRateLimitStoreCtor } {
  return config.databaseUrl ? { store: databaseRateLimitStore(store) } : {};
}
