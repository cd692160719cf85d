import type { FastifyInstance } from 'fastify';
import type { Store } from '../journal/store.ts';
import { journalFailure } from '../journal/journal-failure.ts';
import type { JournalHealth } from './journal-health.ts';

/**
 * docs/reliability.md: liveness (the process answers) and readiness (it can journal a lead). A load balancer
 * sends traffic only to a ready node; an orchestrator restarts a node that is no longer live.
 */
export function registerHealthRoutes(
  app: FastifyInstance,
  store: Store,
  /** Parts running degraded but not stopping leads (docs/operations.md): said, the node stays ready. */
  warnings: () => (string | undefined)[] = () => [],
  /** Writes the journal refused lately (docs/operations.md): not ready while they last. */
  journal?: JournalHealth,
): void {
  // Probes come every few seconds: their log lines would drown the ones that matter.
  app.get('/healthz', { logLevel: 'silent' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', { logLevel: 'silent' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const refused = journal?.problem();
    if (refused) {
      return reply.code(503).send({
        status: 'unavailable',
        reason: `the journal refuses writes (${refused.reason}) since ${refused.since.toISOString()}`,
      });
    }
    try {
      await store.ping();
      const degraded = warnings().filter((warning) => warning !== undefined);
      return degraded.length > 0 ? { status: 'ok', warnings: degraded } : { status: 'ok' };
    } catch (error) {
      if (!journal?.failed(error)) {
        app.log.error({ err: error }, 'readiness: the journal is unreachable');
      }
      return reply.code(503).send({
        status: 'unavailable',
        reason: `the journal is unreachable (${journalFailure(error) ?? (error as Error).message})`,
      });
    }
  });
}
