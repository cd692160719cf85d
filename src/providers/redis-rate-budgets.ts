import type { RateBudgets } from '../domain/rate-budget.ts';

/*
 * The same cell rate as the database's (src/store/sql-rate-budgets.ts), one key per budget holding
 * its next free slot, moved on in one script so nodes never take the same slot. Redis's own clock
 * (TIME) is the one clock every node reads; keys expire a minute after their last slot.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local interval = tonumber(ARGV[1])
local slot = math.max(tonumber(redis.call('GET', KEYS[1]) or '0'), now)
if slot - now > tonumber(ARGV[2]) then return {0, slot - now} end
redis.call('SET', KEYS[1], slot + interval, 'PX', slot + interval - now + 60000)
return {1, slot - now}`;

const PAUSE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local resume = now + tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[1]) or '0') < resume then
  redis.call('SET', KEYS[1], resume, 'PX', resume - now + 60000)
end
return 0`;

/**
 * Provider budgets in Redis when REDIS_URL is set (docs/delivery.md): no journal write per provider
 * call. While Redis cannot be reached, each call falls back on the database's budget, which every
 * node on that database shares too: the limit is still kept, the journal just writes more.
 */
export function redisRateBudgets(
  url: string,
  timeoutMs: number,
  fallback: RateBudgets,
): RateBudgets & { close(): void } {
  // docs/performance.md (starts): ioredis is loaded only when REDIS_URL is set, from here. Its
  // `default` (module.exports): the bundle gives a CommonJS package's dynamic import nothing else.
  const connected = import('ioredis').then(({ default: { Redis } }) => {
    const redis = new Redis(url, {
      connectTimeout: timeoutMs,
      // Down, a call fails at once and takes the database's slot instead of queueing for Redis.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: timeoutMs,
    });
    // ioredis reconnects by itself; every failed call already falls back.
    redis.on('error', () => {});
    return redis;
  });
  const keyOf = (key: string) => `leadgate:budget:${key}`;
  return {
    async reserve(key, intervalMs, maxWaitMs) {
      try {
        const redis = await connected;
        const [reserved, waitMs] = (await redis.eval(
          RESERVE,
          1,
          keyOf(key),
          Math.ceil(intervalMs),
          Math.floor(maxWaitMs),
        )) as [number, number];
        return { reserved: reserved === 1, waitMs };
      } catch {
        return fallback.reserve(key, intervalMs, maxWaitMs);
      }
    },
    async pauseUntil(key, untilMs) {
      try {
        const redis = await connected;
        await redis.eval(PAUSE, 1, keyOf(key), Math.max(0, Math.ceil(untilMs - Date.now())));
      } catch {
        await fallback.pauseUntil(key, untilMs);
      }
    },
    close: () => void connected.then((redis) => redis.disconnect()),
  };
}
