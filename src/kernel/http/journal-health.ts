import type { FastifyBaseLogger } from 'fastify';
import { journalFailure } from '../journal/journal-failure.ts';

/**
 * docs/operations.md (« What fails open, what never does »): whether this node can journal a lead.
 * A write the journal refused (a full disk, a read-only file system, the database gone) makes the
 * node not ready until a write goes through again, or `retryAfterMs` passed without a new failure
 * (so a balancer that stopped sending tries it again). Each cause is logged once per `logEveryMs`,
 * in one line without a stack trace, with how many requests it failed meanwhile.
 */
export function createJournalHealth(
  log: FastifyBaseLogger,
  { retryAfterMs = 30_000, logEveryMs = 60_000, now = () => Date.now() } = {},
) {
  let failing: { reason: string; since: number; lastAt: number } | undefined;
  const logged = new Map<string, { at: number; unsaid: number }>();
  return {
    /** An error answered 500: true when it was the journal's, counted and logged by cause. */
    failed(error: unknown): boolean {
      const reason = journalFailure(error);
      if (!reason) return false;
      const at = now();
      failing = { reason, since: failing?.reason === reason ? failing.since : at, lastAt: at };
      const seen = logged.get(reason);
      if (!seen || at - seen.at >= logEveryMs) {
        log.error(
          {
            reason,
            failedRequests: (seen?.unsaid ?? 0) + 1,
            error: String((error as Error).message),
          },
          'journal: a write was refused; the node reports not ready',
        );
        logged.set(reason, { at, unsaid: 0 });
      } else {
        seen.unsaid += 1;
      }
      return true;
    },
    /** A lead was journaled: the journal takes writes again. */
    wrote(): void {
      if (failing) log.info({ reason: failing.reason }, 'journal: writes go through again');
      failing = undefined;
    },
    /** Why the node cannot journal now, or undefined. */
    problem(): { reason: string; since: Date } | undefined {
      if (!failing || now() - failing.lastAt >= retryAfterMs) return undefined;
      return { reason: failing.reason, since: new Date(failing.since) };
    },
  };
}

export type JournalHealth = ReturnType<typeof createJournalHealth>;
