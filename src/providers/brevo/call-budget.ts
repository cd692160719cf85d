import { setTimeout as sleep } from 'node:timers/promises';
import { BudgetExhaustedError, type RateBudgets } from '../../features/delivery/rate-budget.ts';

/** What an API client asks of its account's rate budget (docs/delivery.md). */
export interface CallBudget {
  /**
   * Waits for this call's slot, read again against the budget's pause before the call; throws
   * BudgetExhaustedError (nothing reserved) when the slot is more than `maxWaitMs` away.
   */
  take(path: string, maxWaitMs: number, signal: AbortSignal): Promise<void>;
  /** The provider answered 429: no call on this path's budget for `resetSeconds`. */
  rateLimited(path: string, resetSeconds: number): Promise<void>;
}

/**
 * docs/delivery.md, « Provider rate budgets »: a reserved slot is used within this long of its time,
 * or not at all; the window the budget counts in is a second plus twice this, so that a slot used
 * late, and a call that takes a little longer to reach the provider than the one before it, still
 * leave at most the limit in any second the provider counts.
 */
export const SLOT_TOLERANCE_MS = 250;

/** Calls per second, per budget; `budgetOf` tells which budget a path draws on. */
export function createCallBudget(
  budgets: RateBudgets,
  perSecond: Record<string, number>,
  budgetOf: (path: string) => string,
  clock: () => number = () => performance.now(),
): CallBudget {
  return {
    async take(path, maxWaitMs, signal) {
      const key = budgetOf(path);
      const limit = { calls: perSecond[key]!, windowMs: 1000 + 2 * SLOT_TOLERANCE_MS };
      const until = clock() + maxWaitMs;
      for (;;) {
        const asked = clock();
        const { reserved, waitMs } = await budgets.reserve(key, limit, until - asked);
        if (!reserved) throw new BudgetExhaustedError(key, new Date(Date.now() + waitMs));
        // The store read its clock between `asked` and now: waiting `waitMs` from now is never
        // before the slot, and the slot is no earlier than `asked + waitMs`. A timer that fired late,
        // or a slow answer, gives the slot up (a call now could crowd the next window): reserve anew.
        if (waitMs > 0) {
          await sleep(waitMs, undefined, { signal });
          // A 429 (this node's or another's) may have paused the budget while this call waited: its
          // slot is then inside the pause, and calling would earn another 429. Reserve anew after
          // it. A pause ending within a millisecond is a timer that fired that much early.
          if ((await budgets.pausedFor(key)) > 1) continue;
        }
        if (clock() - (asked + waitMs) <= SLOT_TOLERANCE_MS) return;
      }
    },
    async rateLimited(path, resetSeconds) {
      await budgets.pauseUntil(budgetOf(path), Date.now() + resetSeconds * 1000);
    },
  };
}
