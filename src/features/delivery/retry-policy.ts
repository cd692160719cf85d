import type { StepOutcome } from '../../kernel/lead/deliveries.ts';

export interface RetryPolicy {
  /** First retry after about this long (DELIVERY_RETRY_BASE_MS), doubling at each attempt… */
  baseMs: number;
  /** …up to this (DELIVERY_RETRY_MAX_MS). */
  maxMs: number;
  /** A step still failing after this many attempts (DELIVERY_MAX_ATTEMPTS) is `dead`… */
  maxAttempts: number;
  /** …or once its lead is this old (DELIVERY_DEAD_AFTER_HOURS). */
  deadAfterMs: number;
}

/**
 * What a failed attempt becomes: retried after an exponential backoff with jitter (half to full
 * delay, so nodes and leads that failed together do not retry together), or `dead`.
 */
export function afterFailure(
  policy: RetryPolicy,
  failure: { attempts: number; receivedAt: Date; error: string },
  now: Date,
  random: () => number = Math.random,
): StepOutcome {
  const age = now.getTime() - failure.receivedAt.getTime();
  if (failure.attempts >= policy.maxAttempts || age >= policy.deadAfterMs) {
    return { status: 'dead', error: failure.error };
  }
  const exponent = Math.min(failure.attempts - 1, 30);
  const delay = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent) * (0.5 + random() / 2);
  return {
    status: 'retrying',
    error: failure.error,
    nextAttemptAt: new Date(now.getTime() + delay),
  };
}
