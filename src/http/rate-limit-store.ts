import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { RateLimitSettings } from './rate-limit.ts';
import type { Store } from '../store/store.ts';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

interface RouteInfo {
  method?: string | string[];
  url?: string;
}

/**
 * Issue 5: @fastify/rate-limit counters kept in the shared database (Store.rateLimits), so N nodes behind a
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
      store.rateLimits.hit(`${this.prefix}${key}`, timeWindow).then(
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
 * Where the counters live: in memory for one node on SQLite (no extra write per request); in Redis
 * when REDIS_URL is set; else in the shared database as soon as DATABASE_URL makes several nodes
 * possible. A counter store that cannot be reached fails the request (500 server_error), as the
 * journal does: limits are never silently dropped.
 */
export function rateLimitCounters(
  app: FastifyInstance,
  config: {
    databaseUrl: string | undefined;
    redisUrl: string | undefined;
    database: { connectTimeoutMs: number };
  },
  store: Store,
): Pick<RateLimitSettings, 'store' | 'redis'> {
  if (config.redisUrl) {
    const redis = new Redis(config.redisUrl, {
      connectTimeout: config.database.connectTimeoutMs,
      // While Redis is away a request fails after one reconnection attempt instead of hanging.
      maxRetriesPerRequest: 1,
    });
    let lastReport = 0;
    redis.on('error', (error: Error) => {
      if (Date.now() - lastReport < 30_000) return;
      lastReport = Date.now();
      app.log.error({ err: error }, 'rate limit: Redis unreachable, POST requests answer 500');
    });
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
    return { redis };
  }
  return config.databaseUrl ? { store: databaseRateLimitStore(store) } : {};
}
