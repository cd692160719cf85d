/**
 * A provider account's call budget, shared by every node and by both delivery modes (docs/delivery.md).
 * Calls are spaced `intervalMs` apart: each caller reserves the next free slot and waits for it, so
 * the provider's limit is respected rather than discovered through 429s.
 */
export interface RateBudgets {
  /**
   * Reserves the next slot of `key` and says how many ms to wait for it; when that slot is further
   * than `maxWaitMs` away nothing is reserved (`reserved: false`, `waitMs` until it).
   */
  reserve(
    key: string,
    intervalMs: number,
    maxWaitMs: number,
  ): Promise<{ reserved: boolean; waitMs: number }>;
  /** No slot before `untilMs` (ms since the epoch): the provider said when its window resets. */
  pauseUntil(key: string, untilMs: number): Promise<void>;
}

/** The budget had no slot within the caller's deadline: try again at `retryAt`, not an attempt. */
export class BudgetExhaustedError extends Error {
  override readonly name = 'BudgetExhaustedError';
  constructor(
    readonly key: string,
    readonly retryAt: Date,
  ) {
    super(`rate budget ${key} has no free slot before ${retryAt.toISOString()}`);
  }
}
