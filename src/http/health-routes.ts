import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/store.ts';

/**
 * Issue 4: liveness (the process answers) and readiness (it can journal a lead). A load balancer
 * sends traffic only to a ready node; an orchestrator restarts a node that is no longer live.
 */
export function registerHealthRoutes(app: FastifyInstance, store: Store): void {
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await store.ping();
      return { status: 'ok' };
    } catch (error) {
      request.log.error({ err: error }, 'readiness: the journal is unreachable');
      return reply.code(503).send({ status: 'unavailable' });
    }
  });
}
