import { setTimeout as sleep } from 'node:timers/promises';
import { BudgetExhaustedError, type RateBudgets } from '../domain/rate-budget.ts';

/** What an API client asks of its account's rate budget (docs/delivery.md). */
export interface CallBudget {
  /**
   * Waits for this call's slot; throws BudgetExhaustedError (nothing reserved) when the slot is more
   * than `maxWaitMs` away, so the caller's deadline is never spent queueing.
   */
  take(path: string, maxWaitMs: number, signal: AbortSignal): Promise<void>;
  /** The provider answered 429: no call on this path's budget for `resetSeconds`. */
  rateLimited(path: string, resetSeconds: number): Promise<void>;
}

/** Calls per second, per budget; `budgetOf` tells which budget a path draws on. */
export function createCallBudget(
  budgets: RateBudgets,
  perSecond: Record<string, number>,
  budgetOf: (path: string) => string,
): CallBudget {
  return {
    async take(path, maxWaitMs, signal) {
      const key = budgetOf(path);
      const { reserved, waitMs } = await budgets.reserve(key, 1000 / perSecond[key]!, maxWaitMs);
      if (!reserved) throw new BudgetExhaustedError(key, new Date(Date.now() + waitMs));
      if (waitMs > 0) await sleep(waitMs, undefined, { signal });
    },
    async rateLimited(path, resetSeconds) {
      await budgets.pauseUntil(budgetOf(path), Date.now() + resetSeconds * 1000);
    },
  };
}
