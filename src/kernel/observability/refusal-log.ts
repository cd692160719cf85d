import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

/** Requests the rate limit refused: they write no request line of their own (see requestLog). */
const refused = new WeakSet<FastifyRequest>();

export const wasRefused = (request: FastifyRequest) => refused.has(request);

/**
 * docs/operations.md, "Logs": a client's first refusal is written at once, so a flood shows as it
 * starts; its next ones are counted and written as one warning per window (`windowMs`, the
 * limiter's), not a line per refused request. A window that counted refusals is followed by
 * another: a flood that goes on writes one line a window, and only a client refused again after a
 * quiet window gets a new "first" line. Each line's `refused` counts the refusals it reports, so
 * their sum is the total. What is still counted when the service stops is written then.
 */
export function createRefusalLog(scope: FastifyInstance, log: FastifyBaseLogger, windowMs: number) {
  const windowSeconds = windowMs / 1000;
  /** The clients whose window is open, and the refusals counted in it. */
  const counts = new Map<string, number>();
  const write = (client: string, count: number) =>
    log.warn(
      { client, refused: count, windowSeconds },
      `rate limit: ${count} more request(s) from one client refused (429)`,
    );
  const open = (client: string) => {
    counts.set(client, 0);
    setTimeout(() => close(client), windowMs).unref();
  };
  const close = (client: string) => {
    const count = counts.get(client);
    counts.delete(client);
    if (!count) return;
    write(client, count);
    open(client);
  };
  scope.addHook('onClose', async () => {
    for (const [client, count] of counts) if (count) write(client, count);
    counts.clear();
  });
  const count = (client: string) => {
    const counted = counts.get(client);
    if (counted !== undefined) {
      counts.set(client, counted + 1);
      return;
    }
    open(client);
    log.warn(
      { client, refused: 1, windowSeconds },
      `rate limit: first request from one client refused (429), the next ones counted per ${windowSeconds} s`,
    );
  };
  return {
    /** The limiter's onExceeded: a refusal Fastify answers, which writes no request line. */
    onExceeded: (request: FastifyRequest, client: string) => {
      refused.add(request);
      count(client);
    },
    /** A refusal answered before Fastify (src/kernel/http/limits/refusal-fast-path.ts). */
    count,
  };
}
