import type { FastifyBaseLogger } from 'fastify';
import { journalFailure } from '../journal/journal-failure.ts';
import {
  JOURNAL_ALERT_AFTER_MS,
  journalFailingAlert,
  journalHealedAlert,
  type JournalAlert,
} from './journal-alerts.ts';

/**
 * docs/operations.md (« What fails open, what never does »): whether this node can journal a lead.
 * A write the journal refused (a full disk, a read-only file system, the database gone) makes the
 * node not ready until a write goes through again, or `retryAfterMs` passed without a new failure
 * (so a balancer that stopped sending tries it again). Each cause is logged once per `logEveryMs`,
 * in one line without a stack trace, with how many requests it failed meanwhile. A cause lasting
 * `alertAfterMs` is announced to the agency once (`announce`), and its end once.
 */
export function createJournalHealth(
  log: FastifyBaseLogger,
  {
    retryAfterMs = 30_000,
    logEveryMs = 60_000,
    alertAfterMs = JOURNAL_ALERT_AFTER_MS,
    announce = async (_alert: JournalAlert) => {},
    now = () => Date.now(),
  } = {},
) {
  let failing: { reason: string; since: number; lastAt: number; announced?: boolean } | undefined;
  const logged = new Map<string, { at: number; unsaid: number }>();

  function tell(alert: JournalAlert): void {
    announce(alert).catch((error: unknown) =>
      log.error({ error: String(error), alert: alert.subject }, 'journal: the alert failed'),
    );
  }

  /** Announces the cause once it has lasted `alertAfterMs` (checked at each failure and probe). */
  function announceIfLasting(at: number): void {
    if (!failing || failing.announced || at - failing.since < alertAfterMs) return;
    failing.announced = true;
    tell(journalFailingAlert(failing.reason, new Date(failing.since)));
  }

  return {
    /** An error answered 500: true when it was the journal's, counted and logged by cause. */
    failed(error: unknown): boolean {
      const reason = journalFailure(error);
      if (!reason) return false;
      const at = now();
      failing =
        failing?.reason === reason ? { ...failing, lastAt: at } : { reason, since: at, lastAt: at };
      announceIfLasting(at);
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
      if (failing?.announced) {
        tell(journalHealedAlert(failing.reason, new Date(failing.since), new Date(now())));
      }
      failing = undefined;
    },
    /** Why the node cannot journal now, or undefined. */
    problem(): { reason: string; since: Date } | undefined {
      if (!failing || now() - failing.lastAt >= retryAfterMs) return undefined;
      announceIfLasting(now());
      return { reason: failing.reason, since: new Date(failing.since) };
    },
  };
}

export type JournalHealth = ReturnType<typeof createJournalHealth>;
