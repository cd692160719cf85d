import type { FastifyInstance } from 'fastify';
import type { Store } from '../journal/store.ts';

/**
 * docs/reliability.md: liveness (the process answers) and readiness (it can journal a lead). A load balancer
 * sends traffic only to a ready node; an orchestrator restarts a node that is no longer live.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  store: Store,
  /** Parts running degraded but not stopping leads (docs/operations.md): said, the node stays ready. */
  warnings: () => (string | undefined)[] = () => [],
): void {
  // Probes come every few seconds: their log lines would drown the ones that matter.
  app.get('/healthz', { logLevel: 'silent' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', { logLevel: 'silent' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await store.ping();
      const degraded = warnings().filter((warning) => warning !== undefined);
      return degraded.length > 0 ? { status: 'ok', warnings: degraded } : { status: 'ok' };
    } catch (error) {
      app.log.error({ err: error }, 'readiness: the journal is unreachable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
