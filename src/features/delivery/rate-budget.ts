/** At most `calls` calls in any window of `windowMs`: a provider's limit as a sliding window. */
export interface CallLimit {
  calls: number;
  windowMs: number;
}

/**
 * A provider account's call budget, shared by every node and by both delivery modes (docs/delivery.md,
 * « Provider rate budgets »). Each caller reserves the moment of its call in the shared store before
 * calling, so the provider's limit is respected rather than discovered through 429s.
 */
export interface RateBudgets {
  /**
   * Reserves the earliest moment of a call on `key` that keeps `limit` (`nextSlot`) and says how many
   * ms from now it is; when that moment is further than `maxWaitMs` nothing is reserved
   * (`reserved: false`, `waitMs` until it).
   */
  reserve(
    key: string,
    limit: CallLimit,
    maxWaitMs: number,
  ): Promise<{ reserved: boolean; waitMs: number }>;
  /** No slot before `untilMs` (ms since the epoch): the provider said when its window resets. */
  pauseUntil(key: string, untilMs: number): Promise<void>;
  /**
   * How many ms from now the budget stays paused (0: not paused), as the store holds it now: a
   * slot reserved before a 429 is read against it again before its call (docs/delivery.md).
   */
  pausedFor(key: string): Promise<number>;
}

/**
 * The earliest moment, not before `now`, `pausedUntil` nor the latest reservation, such that no window
 * of `limit.windowMs` holds more than `limit.calls` of `recent` (the latest reservations, oldest
 * first) and it. Reservations only move forward, so the window ending at the new one is the only
 * one to check: the `calls`-th latest must be a whole window earlier.
 */
export function nextSlot(
  recent: readonly number[],
  now: number,
  limit: CallLimit,
  pausedUntil = 0,
): number {
  const latest = recent.at(-1) ?? 0;
  const windowStart =
    recent.length >= limit.calls ? recent[recent.length - limit.calls]! + limit.windowMs : 0;
  return Math.max(now, pausedUntil, latest, windowStart);
}

/** The reservations `nextSlot` needs after `slot` is taken: the latest `limit.calls`. */
export function keptAfter(recent: readonly number[], slot: number, limit: CallLimit): number[] {
  return [...recent, slot].slice(-limit.calls);
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
