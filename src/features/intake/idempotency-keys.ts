/**
 * Idempotency-Keys and body fingerprints are written with their lead, in the accept transaction
 * (Deliveries.accept, docs/reliability.md); this is what forgets them once they expire.
 */
export interface IdempotencyKeys {
  /** Forgets every key created before `expiredBefore`, used or not; returns how many went. */
  sweep(expiredBefore: Date): Promise<number>;
}
