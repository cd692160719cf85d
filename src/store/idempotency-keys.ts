/**
 * Issue 4: one row per Idempotency-Key. `in_progress` while a request holds it, `done` once its lead
 * was handed over, `retryable` after a failed hand-off (the next retry with the key re-delivers the
 * same journaled lead instead of journaling a second one).
 */
export type IdempotencyState = 'in_progress' | 'retryable' | 'done';

export interface IdempotencyRecord {
  key: string;
  /** Hash of what was asked (endpoint and body): the same key with another request is a conflict. */
  fingerprint: string;
  /** The journal entry this key stands for, chosen before the lead is written. */
  leadId: string;
  state: IdempotencyState;
  /** For `done`: the `existing` flag of the first answer (spec 2.4). */
  existing: boolean | null;
  createdAt: Date;
  /** Exact stored text, compared when a request takes the key over. */
  updatedAt: string;
}

export interface IdempotencyKeys {
  /**
   * Inserts the key as `in_progress` unless a live row holds it (rows created before `expiredBefore`
   * are forgotten first). The primary key decides between concurrent requests: the winner gets
   * `claimed`, every other one the row it lost to.
   */
  claim(
    record: { key: string; fingerprint: string; leadId: string },
    now: Date,
    expiredBefore: Date,
  ): Promise<'claimed' | IdempotencyRecord>;
  /** Moves a `retryable` (or abandoned `in_progress`) row back to `in_progress` if nobody did meanwhile. */
  takeOver(record: IdempotencyRecord, now: Date): Promise<boolean>;
  settle(
    key: string,
    outcome: { state: 'done'; existing: boolean } | { state: 'retryable' },
    now: Date,
  ): Promise<void>;
}
