/** docs/deployment.md: fixed-window counters for @fastify/rate-limit, shared by every node on the database. */
export interface RateLimitCounters {
  /** Counts one hit on `key` in a fixed window of `windowMs`; says how many so far and when it ends. */
  hit(key: string, windowMs: number): Promise<{ hits: number; resetAt: Date }>;
}
