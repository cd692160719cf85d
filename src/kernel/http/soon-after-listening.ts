import type { FastifyInstance } from 'fastify';

/** Long enough for a start's first answers (a health check, the first page) to go first. */
const AFTER_LISTENING_MS = 1000;

/**
 * Work a start can leave for later, done a second after the server listens rather than before it
 * answers (docs/performance.md, "What a start loads"): whoever needs it earlier does it then.
 */
export function soonAfterListening(app: FastifyInstance, task: () => unknown): void {
  app.addHook('onListen', async () => {
    setTimeout(() => void task(), AFTER_LISTENING_MS).unref();
  });
}
