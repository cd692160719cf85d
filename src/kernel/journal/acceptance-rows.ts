import type { Acceptance, Deliveries } from '../lead/deliveries.ts';
import type { StepTarget } from '../lead/destination.ts';
import type { Lead } from '../lead/lead.ts';
import { consentColumns } from './sql-consent.ts';
import type { DeliveryStepsTable, IdempotencyKeysTable, LeadsTable } from './tables.ts';

/*
 * What accepting a lead writes, and what an earlier request's keys decide, shared by the two ways the
 * journal runs it: Kysely's transaction per lead (PostgreSQL) and SQLite's synchronous transaction
 * per turn of the event loop (sqlite-turn-accepts.ts).
 */

export type AcceptInput = Parameters<Deliveries['accept']>[0];

/** Another request journaled the same key between our read and our insert: start over. */
export class KeyTaken extends Error {}

/** The caller's key first, then the body's (docs/reliability.md). */
export function idempotencyKeysOf({ idempotency }: AcceptInput): string[] {
  return idempotency.key === undefined
    ? [idempotency.bodyKey]
    : [idempotency.key, idempotency.bodyKey];
}

type EarlierKey = Pick<
  IdempotencyKeysTable,
  'key' | 'fingerprint' | 'lead_id' | 'existing' | 'created_at'
>;

/**
 * The answer an earlier request's keys give this one, with the caller's key to record for that lead
 * when the same body arrives under a new key; undefined when the lead is new.
 */
export function earlierAcceptance(
  earlier: readonly EarlierKey[],
  { idempotency }: AcceptInput,
): { acceptance: Acceptance; recordKey?: { key: string; leadId: string } } | undefined {
  const byKey = earlier.find((row) => row.key === idempotency.key);
  if (byKey) {
    if (byKey.fingerprint !== idempotency.fingerprint)
      return { acceptance: { accepted: 'conflict' } };
    return {
      acceptance: {
        accepted: 'again',
        leadId: byKey.lead_id,
        existing: Boolean(byKey.existing),
        by: 'key',
        firstAnsweredAt: new Date(byKey.created_at),
      },
    };
  }
  const byBody = earlier.find((row) => row.key === idempotency.bodyKey);
  if (!byBody) return undefined;
  // The address is known now: it was accepted with this very body (docs/api-decisions.md).
  return {
    acceptance: { accepted: 'again', leadId: byBody.lead_id, existing: true, by: 'body' },
    ...(idempotency.key !== undefined && {
      recordKey: { key: idempotency.key, leadId: byBody.lead_id },
    }),
  };
}

export function keyRowsOf(
  keys: readonly string[],
  fingerprint: string,
  leadId: string,
  existing: boolean,
  at: string,
): IdempotencyKeysTable[] {
  return keys.map((key) => ({
    key,
    fingerprint,
    lead_id: leadId,
    state: 'done',
    existing: Number(existing),
    created_at: at,
    updated_at: at,
  }));
}

/** The workspace's columns start empty (« nouveau » by the column's default). */
export type NewLeadRow = Omit<
  LeadsTable,
  | 'last_error'
  | 'provider_answer'
  | 'claimed_until'
  | 'work_status'
  | 'assignee'
  | 'read_at'
  | 'read_by'
  | 'started_at'
  | 'answered_at'
>;

export function leadRowOf(
  { lead, steps, spam = false, spamReason }: AcceptInput,
  email: string,
  at: string,
): NewLeadRow {
  return {
    id: lead.id,
    kind: lead.kind,
    email,
    payload: JSON.stringify(lead.data),
    received_at: at,
    status: spam ? 'spam' : steps.length > 0 ? 'pending' : 'delivered',
    attempts: 0,
    updated_at: at,
    ...consentColumns(lead.consent),
    spam_reason: spam ? (spamReason ?? null) : null,
  };
}

export type NewStepRow = Omit<
  DeliveryStepsTable,
  'lease_until' | 'last_error' | 'detail' | 'alerted_at' | 'revision'
>;

/** One `pending` step per target, due at `at`. */
export function stepRowsOf(
  lead: Pick<Lead, 'id' | 'receivedAt'>,
  steps: readonly StepTarget[],
  at: Date,
): NewStepRow[] {
  return steps.map((step) => ({
    lead_id: lead.id,
    destination: step.destination,
    provider: step.provider,
    status: 'pending',
    attempts: 0,
    next_attempt_at: at.toISOString(),
    received_at: lead.receivedAt.toISOString(),
    updated_at: at.toISOString(),
  }));
}
