import type { FastifyInstance } from 'fastify';

/** Long enough for a start's first answers (a health check, the first page) to go first. */
const AFTER_LISTENING_MS = 1000;

/**
 * Work a start can leave for later, done a second after the server listens rather than before it
 * answers (docs/performance.md, "What a start loads"): whoever needs it earlier does it then.
 * A server closed before that second never starts the work; one closed while it runs waits for it,
 * so nothing is still loading once `close()` has returned.
 */
export function soonAfterListening(app: FastifyInstance, task: () => unknown): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  app.addHook('onListen', async () => {
    timer = setTimeout(() => {
      running = Promise.resolve()
        .then(task)
        .catch(() => undefined);
    }, AFTER_LISTENING_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(timer);
    await running;
  });
}
