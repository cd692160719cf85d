import type { SpamReason } from './spam-reason.ts';
import type { StepTarget } from './destination.ts';
import type { Lead } from './lead.ts';

/**
 * `pending` (never tried), `retrying` (failed, tried again at `nextAttemptAt`), `done`, `refused`
 * (refused for good, see RefusedError), `dead` (given up after DELIVERY_MAX_ATTEMPTS or
 * DELIVERY_DEAD_AFTER_HOURS; the agency was alerted).
 */
export type StepStatus = 'pending' | 'retrying' | 'done' | 'refused' | 'dead';
export const UNFINISHED_STEP_STATUSES: readonly StepStatus[] = ['pending', 'retrying', 'dead'];

export interface DeliveryStep extends StepTarget {
  leadId: string;
  status: StepStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  detail: string | null;
}

/** A step a dispatcher holds a lease on, with its lead. */
export interface ClaimedStep extends DeliveryStep {
  lead: Lead;
  /** The plan it was claimed under: its settle writes over this plan only. */
  revision: number;
  /** The lease as journaled by the claim (ISO-8601), so that a settle frees only its own. */
  leaseUntil: string | null;
}

/**
 * How a settle ended: `settled`, the outcome written; `planned-again`, the step was planned again
 * while it ran (docs/delivery.md, « The dispatcher »), so the outcome is not written and the step
 * stays due for the next run.
 */
export type Settled = 'settled' | 'planned-again';

export type StepOutcome =
  | { status: 'done'; detail: string }
  | { status: 'refused' | 'dead'; error: string }
  | { status: 'retrying'; error: string; nextAttemptAt: Date }
  /** Not tried (the rate budget had no slot in time): back in line, no attempt counted. */
  | { status: 'postponed'; nextAttemptAt: Date };

export type Acceptance =
  | { accepted: 'new'; leadId: string; existing: boolean }
  /**
   * The same key (a retry, answered as the first: docs/reliability.md) or the same body within the
   * window (a repeat, which learns the address is known now) already stands for this lead.
   */
  | {
      accepted: 'again';
      leadId: string;
      existing: boolean;
      by: 'key';
      /** When this key was first answered: a retry's answer repeats that one's `answerBy`. */
      firstAnsweredAt: Date;
    }
  | { accepted: 'again'; leadId: string; existing: boolean; by: 'body' }
  | { accepted: 'conflict' };

export interface ClaimRequest {
  /** Only steps this process can perform. */
  targets: readonly StepTarget[];
  now: Date;
  leaseUntil: Date;
  limit: number;
  /** One lead's steps whatever their schedule, `dead` ones included (sync mode, `leads replay`). */
  leadId?: string;
}

export interface BacklogLine extends StepTarget {
  pending: number;
  retrying: number;
  dead: number;
  /** Steps refused for good (an address the destination refuses): finished, but shown. */
  refused: number;
  /** Arrival of the oldest lead with an unfinished step here. */
  oldestReceivedAt: Date | null;
}

/**
 * The delivery side of the journal (docs/delivery.md). `accept` is the whole accept path in one
 * transaction: the lead, its idempotency record and its steps are durable together or not at all.
 */
export interface Deliveries {
  accept(input: {
    lead: Lead;
    steps: readonly StepTarget[];
    /**
     * A site form's bot trap caught it: journaled as `spam` with no step, and the address is only
     * looked up for `existing`, never made known (a later real request is not told it exists).
     */
    spam?: boolean;
    /** Why it is `spam`, stored with the lead for the agency's review. */
    spamReason?: SpamReason;
    idempotency: {
      /** The caller's Idempotency-Key: a repeat gets the first answer again. */
      key?: string;
      /** Stands for the body (same endpoint, same fields): a repeat is the same lead, `existing`. */
      bodyKey: string;
      fingerprint: string;
      /** Records created before this are forgotten (24 h). */
      expiredBefore: Date;
    };
  }): Promise<Acceptance>;
  /** Leases due steps (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one writer) so no two nodes run one. */
  claim(request: ClaimRequest): Promise<ClaimedStep[]>;
  /**
   * Ends a claimed attempt and updates the lead's status from all its steps, in one transaction; a
   * step planned again since its claim is only freed, due as planned.
   */
  settle(step: ClaimedStep, outcome: StepOutcome, now: Date): Promise<Settled>;
  steps(leadId: string): Promise<DeliveryStep[]>;
  backlog(): Promise<BacklogLine[]>;
  /** Unfinished steps per provider: a process configured without that provider must not replay them. */
  unfinishedByProvider(): Promise<Map<string, number>>;
  /** `dead` steps no alert has listed yet, marked as listed (an alert that fails calls `unmarkAlerted`). */
  takeDeadForAlert(now: Date): Promise<ClaimedStep[]>;
  unmarkAlerted(steps: readonly DeliveryStep[]): Promise<void>;
  /**
   * `pending` or `failed` leads without any step: journaled before steps existed
   * (src/features/delivery/unplanned-leads.ts).
   */
  unplanned(limit: number): Promise<Lead[]>;
  /** Gives such a lead its steps, due now; a lead another process planned meanwhile is left alone. */
  plan(lead: Lead, steps: readonly StepTarget[], now: Date): Promise<void>;
  /**
   * `leads release` (src/features/inbox/spam-release.ts): a `spam` lead gets its steps, due now,
   * and its address becomes known (spec 2.4); false when the lead is not `spam` (any more).
   */
  release(lead: Lead, steps: readonly StepTarget[], now: Date): Promise<boolean>;
}
