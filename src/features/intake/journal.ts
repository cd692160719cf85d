import type { IdempotencyKeys } from './idempotency-keys.ts';

/** The part of the journal's port that intake owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /** docs/reliability.md: Idempotency-Keys and body fingerprints, swept once expired. */
    readonly idempotency: IdempotencyKeys;
  }
}
