import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';

/** Requests the rate limit refused: they write no request line of their own (see requestLog). */
const refused = new WeakSet<FastifyRequest>();

export const wasRefused = (request: FastifyRequest) => refused.has(request);

/**
 * docs/operations.md: a flood past the rate limit writes one warning per client and window, with
 * the count, instead of a line per refused request. The window starts at the client's first
 * refusal and lasts `windowMs` (the limiter's); what is still counted at close is written then.
 */
export function createRefusalLog(scope: FastifyInstance, log: FastifyBaseLogger, windowMs: number) {
  const counts = new Map<string, number>();
  const flush = (client: string) => {
    const count = counts.get(client);
    counts.delete(client);
    if (count) {
      log.warn(
        { client, refused: count, windowSeconds: windowMs / 1000 },
        `rate limit: ${count} request(s) from one client refused (429)`,
      );
    }
  };
  scope.addHook('onClose', async () => {
    for (const client of [...counts.keys()]) flush(client);
  });
  return (request: FastifyRequest, client: string) => {
    refused.add(request);
    const count = counts.get(client);
    counts.set(client, (count ?? 0) + 1);
    if (count === undefined) setTimeout(() => flush(client), windowMs).unref();
  };
}
