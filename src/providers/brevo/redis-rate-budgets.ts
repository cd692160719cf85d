import type { RateBudgets } from '../../features/delivery/rate-budget.ts';

/*
 * The same sliding window as the database's (src/features/delivery/sql-rate-budgets.ts, `nextSlot`
 * in src/features/delivery/rate-budget.ts), in one script so nodes never take the same slot: a list
 * of the latest reserved calls (KEYS[1]) and a 429's « not before » (KEYS[2]). Redis's own clock
 * (TIME) is the one clock every node reads; keys expire a minute after their window.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local calls = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local recent = redis.call('LRANGE', KEYS[1], 0, -1)
local slot = math.max(now, tonumber(redis.call('GET', KEYS[2]) or '0'))
if #recent > 0 then slot = math.max(slot, tonumber(recent[#recent])) end
if #recent >= calls then slot = math.max(slot, tonumber(recent[#recent - calls + 1]) + window) end
if slot - now > tonumber(ARGV[3]) then return {0, slot - now} end
redis.call('RPUSH', KEYS[1], slot)
redis.call('LTRIM', KEYS[1], -calls, -1)
redis.call('PEXPIRE', KEYS[1], slot - now + window + 60000)
return {1, slot - now}`;

const PAUSE = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local resume = now + tonumber(ARGV[1])
if tonumber(redis.call('GET', KEYS[1]) or '0') < resume then
  redis.call('SET', KEYS[1], resume, 'PX', resume - now + 60000)
end
return 0`;

const PAUSED_FOR = `
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
return math.max(0, tonumber(redis.call('GET', KEYS[1]) or '0') - now)`;

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
  const callsOf = (key: string) => `leadgate:budget:${key}:calls`;
  const pauseOf = (key: string) => `leadgate:budget:${key}:pause`;
  return {
    async reserve(key, limit, maxWaitMs) {
      try {
        const redis = await connected;
        const [reserved, waitMs] = (await redis.eval(
          RESERVE,
          2,
          callsOf(key),
          pauseOf(key),
          limit.calls,
          Math.ceil(limit.windowMs),
          Math.floor(maxWaitMs),
        )) as [number, number];
        return { reserved: reserved === 1, waitMs };
      } catch {
        return fallback.reserve(key, limit, maxWaitMs);
      }
    },
    async pauseUntil(key, untilMs) {
      try {
        const redis = await connected;
        await redis.eval(PAUSE, 1, pauseOf(key), Math.max(0, Math.ceil(untilMs - Date.now())));
      } catch {
        await fallback.pauseUntil(key, untilMs);
      }
    },
    async pausedFor(key) {
      try {
        const redis = await connected;
        return (await redis.eval(PAUSED_FOR, 1, pauseOf(key))) as number;
      } catch {
        return fallback.pausedFor(key);
      }
    },
    close: () => void connected.then((redis) => redis.disconnect()),
  };
}
