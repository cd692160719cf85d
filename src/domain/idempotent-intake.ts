import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IdempotencyRecord } from '../store/idempotency-keys.ts';
import type { Store } from '../store/store.ts';
import { IdempotencyConflictError } from './errors.ts';
import type { Intake, IntakeOutcome } from './intake.ts';
import type { LeadRequest } from './lead.ts';

/** Issue 4: a key answers the same request the same way for 24 hours. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotentIntakeDependencies {
  intake: Intake;
  store: Pick<Store, 'idempotency' | 'find'>;
  /** How long a request waits for another one holding its key, and when a held key counts as abandoned. */
  timeoutMs: number;
  now?: () => Date;
  newId?: () => string;
  pollMs?: number;
}

/**
 * Retries without duplicates (issue 4). The key is claimed by inserting it (the primary key picks one
 * winner among concurrent requests), with the id of the lead it will journal. A delivered key answers
 * again from its record without calling the provider; a failed one lets the retry re-deliver that same
 * lead; a request that finds the key held by another waits for its outcome.
 */
export function createIdempotentIntake({
  intake,
  store,
  timeoutMs,
  now = () => new Date(),
  newId = randomUUID,
  pollMs = 25,
}: IdempotentIntakeDependencies) {
  const abandonedAfterMs = 2 * timeoutMs + 10_000;

  async function run(key: string, leadId: string, task: () => Promise<IntakeOutcome>) {
    try {
      const outcome = await task();
      await store.idempotency.settle(key, { state: 'done', existing: outcome.existing }, now());
      return outcome;
    } catch (error) {
      await store.idempotency.settle(key, { state: 'retryable' }, now()).catch(() => {});
      throw error;
    }
  }

  /** Takes up a lead a previous attempt journaled (or did not get to journal) under this key. */
  async function resume(record: IdempotencyRecord, request: LeadRequest) {
    const entry = await store.find(record.leadId);
    if (!entry)
      return run(record.key, record.leadId, () => intake.submit(request, { id: record.leadId }));
    if (entry.status === 'delivered') {
      return run(record.key, record.leadId, async () => ({ existing: record.existing ?? false }));
    }
    return run(record.key, record.leadId, () => intake.redeliver(entry));
  }

  return {
    async submit(request: LeadRequest, key?: string): Promise<IntakeOutcome> {
      if (key === undefined) return intake.submit(request);
      const fingerprint = fingerprintOf(request);
      const waitUntil = Date.now() + timeoutMs + 2_000;
      for (;;) {
        const at = now();
        const leadId = newId();
        const claim = await store.idempotency.claim(
          { key, fingerprint, leadId },
          at,
          new Date(at.getTime() - IDEMPOTENCY_TTL_MS),
        );
        if (claim === 'claimed')
          return run(key, leadId, () => intake.submit(request, { id: leadId }));
        if (claim.fingerprint !== fingerprint)
          throw new IdempotencyConflictError('different_request');
        if (claim.state === 'done') return { existing: claim.existing ?? false };
        const abandoned =
          claim.state === 'in_progress' &&
          at.getTime() - new Date(claim.updatedAt).getTime() > abandonedAfterMs;
        if (claim.state === 'retryable' || abandoned) {
          if (await store.idempotency.takeOver(claim, now())) return resume(claim, request);
          continue;
        }
        if (Date.now() > waitUntil) throw new IdempotencyConflictError('in_progress');
        await sleep(pollMs);
      }
    },
  };
}

export type IdempotentIntake = ReturnType<typeof createIdempotentIntake>;

/** Same endpoint and same fields (in any order, JSON or form) → same fingerprint. */
export function fingerprintOf(request: LeadRequest): string {
  return createHash('sha256')
    .update(canonicalJson([request.kind, request.data]))
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const entries = keys.map(
      (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
