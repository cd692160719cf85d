import { IDEMPOTENCY_TTL_MS } from './intake.ts';
import type { Store } from '../../kernel/journal/store.ts';

/** Once an hour: a key lives at most 25 hours, whether or not it is used again. */
export const IDEMPOTENCY_SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Forgets expired Idempotency-Keys on a schedule (docs/reliability.md): a key is otherwise removed
 * only when it is sent again, so keys used once would stay in the journal database for ever. The
 * timer never holds the process open; `stop` ends it. A failed sweep is reported and retried at the
 * next tick (several nodes sweeping the same table only delete the same rows).
 */
export function startIdempotencySweep(
  store: Pick<Store, 'idempotency'>,
  {
    everyMs = IDEMPOTENCY_SWEEP_EVERY_MS,
    now = () => new Date(),
    onError,
  }: { everyMs?: number; now?: () => Date; onError: (error: unknown) => void },
): { stop(): void } {
  const timer = setInterval(() => {
    store.idempotency.sweep(new Date(now().getTime() - IDEMPOTENCY_TTL_MS)).catch(onError);
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
