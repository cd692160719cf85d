import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { PostgresSettings } from '../kernel/journal/postgres/postgres-database.ts';
import { CounterHealth, failOpenRedisStore } from '../kernel/http/limits/fail-open-counters.ts';
import type { RateLimitSettings } from '../kernel/http/limits/rate-limit.ts';
import type { RateLimitCounters } from '../kernel/journal/rate-limit-counters.ts';
import { createRateLimitCounters } from './create-rate-limit-counters.ts';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

interface RouteInfo {
  method?: string | string[];
  url?: string;
}

/**
 * docs/deployment.md: @fastify/rate-limit counters kept in the shared database, so N nodes behind a
 * load balancer count one client's requests together instead of N times over. Each route counts apart,
 * as with the plugin's own stores.
 */
export function databaseRateLimitStore(counters: RateLimitCounters): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly prefix = '',
    ) {}

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      counters.hit(`${this.prefix}${key}`, timeWindow).then(
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
 * when REDIS_URL is set, falling back to per-node memory while Redis is unreachable (a lead is
 * never refused because a counter store is down); else in the shared database as soon as
 * DATABASE_URL makes several nodes possible (where the journal lives too: down, it fails the
 * request anyway). ioredis is loaded only with REDIS_URL (docs/performance.md, starts).
 */
export async function rateLimitCounters(
  app: FastifyInstance,
  config: {
    databaseUrl: string | undefined;
    redisUrl: string | undefined;
    database: PostgresSettings;
  },
): Promise<{ settings: Pick<RateLimitSettings, 'store'>; health?: CounterHealth }> {
  if (config.redisUrl) {
    // The package's `default`, the only export a CommonJS package's dynamic import has in the bundle.
    const {
      default: { Redis },
    } = await import('ioredis');
    const redis = new Redis(config.redisUrl, {
      connectTimeout: config.database.connectTimeoutMs,
      // While Redis is away a command fails at once (and the node counts in memory) instead of
      // waiting in a queue; one that gets no answer gives up after the connect timeout.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: config.database.connectTimeoutMs,
    });
    const health = new CounterHealth(app.log);
    // ioredis reconnects by itself; its errors are already summed up by CounterHealth's warning.
    redis.on('error', () => {});
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
    return { settings: { store: failOpenRedisStore(redis, health) }, health };
  }
  const shared = createRateLimitCounters(config);
  if (!shared) return { settings: {} };
  app.addHook('onClose', () => shared.close());
  return { settings: { store: databaseRateLimitStore(shared) } };
}
