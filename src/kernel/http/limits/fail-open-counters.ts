import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

type IncrCallback = Parameters<FastifyRateLimitStore['incr']>[1];

/**
 * Whether the shared counters answer. docs/operations.md: abuse counters fail open, leads never
 * do: while Redis is unreachable each node counts in its own memory (a client gets up to N × the
 * limit across N nodes), one warning is logged, and /readyz says so while staying ready.
 */
export class CounterHealth {
  private downSince: Date | undefined;

  constructor(private readonly log: FastifyBaseLogger) {}

  /** A sentence for /readyz while degraded, else undefined. */
  warning(): string | undefined {
    return this.downSince
      ? `rate-limit counters: Redis unreachable since ${this.downSince.toISOString()}, counting per node in memory`
      : undefined;
  }

  failed(error: Error): void {
    if (this.downSince) return;
    this.downSince = new Date();
    this.log.warn({ err: error }, 'rate limit: Redis unreachable, counting per node in memory');
  }

  answered(): void {
    if (!this.downSince) return;
    this.downSince = undefined;
    this.log.warn('rate limit: Redis answers again, counters shared again');
  }
}

class FailOpenStore implements FastifyRateLimitStore {
  constructor(
    private readonly shared: FastifyRateLimitStore,
    private readonly local: FastifyRateLimitStore,
    private readonly health: CounterHealth,
  ) {}

  incr(key: string, callback: IncrCallback, timeWindow: number, max: number): void {
    this.shared.incr(
      key,
      (error, result) => {
        if (!error) {
          this.health.answered();
          callback(null, result);
          return;
        }
        this.health.failed(error);
        this.local.incr(key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new FailOpenStore(
      this.shared.child(routeOptions),
      this.local.child(routeOptions),
      this.health,
    );
  }
}

/** Counters in Redis, falling back to this node's memory whenever a Redis call fails. */
export function failOpenRedisStore(redis: Redis, health: CounterHealth): FastifyRateLimitStoreCtor {
  return class extends FailOpenStore {
    constructor() {
      // registerRateLimit sets neither continueExceeding nor exponentialBackoff.
      super(new RedisStore(false, false, redis), new LocalStore(false, false), health);
    }
  };
}
