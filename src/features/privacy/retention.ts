import type { Store } from '../../kernel/journal/store.ts';
import type { Expiry } from './journal.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The timer functions the job uses: Node's by default, a test's simulated clock otherwise. */
export interface Clock {
  now(): Date;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const SYSTEM_CLOCK: Clock = {
  now: () => new Date(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/**
 * Storage limitation (RGPD art. 5.1.e, docs/consent.md): once a day the running service erases every
 * address whose last request is older than RETENTION_DAYS; the first pass runs soon after start, so
 * a service restarted daily still applies it. Several nodes may run it: erasing twice is harmless.
 */
export function startRetention({
  store,
  days,
  auditDays,
  clock = SYSTEM_CLOCK,
  firstRunAfterMs = 60_000,
  onRun = () => {},
  onError = () => {},
}: {
  store: Pick<Store, 'people'> & Partial<Pick<Store, 'staff'>>;
  days: number;
  /**
   * docs/workspace-security.md, "Audit trail": days the team's audit trail is kept (none purged if
   * unset).
   */
  auditDays?: number;
  clock?: Clock;
  firstRunAfterMs?: number;
  onRun?: (erased: Expiry, cutoff: Date) => void;
  onError?: (error: unknown) => void;
}): { stop(): void; runOnce(): Promise<Expiry> } {
  let timer: unknown;
  let stopped = false;

  async function runOnce(): Promise<Expiry> {
    const cutoff = new Date(clock.now().getTime() - days * DAY_MS);
    const erased = await store.people.expire(cutoff);
    if (auditDays !== undefined && store.staff) {
      await store.staff.purgeBefore(new Date(clock.now().getTime() - auditDays * DAY_MS));
    }
    onRun(erased, cutoff);
    return erased;
  }

  function schedule(ms: number) {
    if (stopped) return;
    const handle = clock.setTimeout(() => {
      runOnce()
        .catch(onError)
        .finally(() => schedule(DAY_MS));
    }, ms);
    // A pending daily run must not keep a stopping process alive.
    (handle as { unref?: () => unknown }).unref?.();
    timer = handle;
  }

  schedule(firstRunAfterMs);
  return {
    runOnce,
    stop() {
      stopped = true;
      clock.clearTimeout(timer);
    },
  };
}
