import type { Lead, LeadKind } from '../domain/lead.ts';
import type { Handoffs } from './handoffs.ts';
import type { IdempotencyKeys } from './idempotency-keys.ts';
import type { RateLimitCounters } from './rate-limit-counters.ts';

export type LeadStatus = 'pending' | 'delivered' | 'failed';
export const LEAD_STATUSES: readonly LeadStatus[] = ['pending', 'delivered', 'failed'];

/** One row of the journal, as the CLI and replay see it. */
export interface JournalEntry {
  lead: Lead;
  status: LeadStatus;
  attempts: number;
  lastError: string | null;
  providerAnswer: string | null;
  updatedAt: Date;
}

export interface ReplayLease {
  staleBefore: Date;
  leaseUntil: Date;
  /** The lead claimed last by this run: each run walks the journal once, so tries each lead once. */
  after?: { receivedAt: Date; id: string };
}

/** The durable journal of leads and the addresses known per audience (one small interface, two SQL dialects). */
export interface Store {
  /** Writes the lead as `pending`; resolves only once it is durably stored. */
  record(lead: Lead): Promise<void>;
  /** Marks the lead delivered and remembers its address; says whether the address was known before. */
  markDelivered(id: string, providerAnswer: string): Promise<{ alreadyKnown: boolean }>;
  markFailed(id: string, error: string): Promise<void>;
  list(filter?: {
    statuses?: readonly LeadStatus[];
    kinds?: readonly LeadKind[];
  }): Promise<JournalEntry[]>;
  /**
   * Issue 5: takes the oldest lead to replay (failed, or pending since before `staleBefore`) that comes
   * after `after` in journal order, and leases it until `leaseUntil`, atomically, so a replay running on
   * another node at the same time skips it. Undefined when none is left.
   */
  claimForReplay(lease: ReplayLease): Promise<JournalEntry | undefined>;
  /** Issue 4: one journal entry by id. */
  find(id: string): Promise<JournalEntry | undefined>;
  /** Issue 4: Idempotency-Key records (retries without duplicates). */
  readonly idempotency: IdempotencyKeys;
  /** Issue 4: the e-mails of each lead already handed over (a replay never sends one twice). */
  readonly handoffs: Handoffs;
  /** Issue 5: rate-limit counters shared by every node (used when DATABASE_URL is set). */
  readonly rateLimits: RateLimitCounters;
  /**
   * Deletes the leads received before `before`, with their hand-off records and idempotency keys
   * (retention periods of the privacy policy); returns how many leads were deleted.
   */
  purgeReceivedBefore(before: Date): Promise<number>;
  /** Throws when the database cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
