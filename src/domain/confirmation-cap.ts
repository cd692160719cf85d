import type { Destination } from './destination.ts';
import type { Lead } from './lead.ts';
import { emailOf } from './lead.ts';

/** docs/reliability.md, "Hostile input": one confirmation per address, endpoint and 24 hours (the default). */
export const CONFIRMATION_INTERVAL_MS = 24 * 60 * 60 * 1000;

/**
 * Who got a confirmation lately, per endpoint and address, in the journal database (so every node
 * sees the same). Anyone can type a stranger's address into a form; without a cap, 40 requests are
 * 40 e-mails to that stranger from the agency's domain.
 */
export interface ConfirmationSends {
  /**
   * Claims the right to confirm `leadId` to `email` on `kind`: true when no other lead of that
   * address and kind claimed it since `since` (or when `leadId` itself holds it: a re-delivery).
   * Atomic, so two nodes racing on one address confirm once.
   */
  claim(kind: Lead['kind'], email: string, leadId: string, at: Date, since: Date): Promise<boolean>;
  /** The last claim for this address and kind, to tell a caller whether an e-mail went lately. */
  lastClaim(kind: Lead['kind'], email: string): Promise<{ leadId: string; at: Date } | undefined>;
}

/**
 * Decides whether this lead's confirmation may go out. The lead itself is still journaled and the
 * agency still notified: only the e-mail to the unverified address is held back. An interval of 0
 * (CONFIRMATION_INTERVAL_HOURS=0) is no cap.
 */
export async function mayConfirm(
  sends: ConfirmationSends,
  lead: Lead,
  at: Date,
  intervalMs = CONFIRMATION_INTERVAL_MS,
): Promise<boolean> {
  if (intervalMs === 0) return true;
  return sends.claim(lead.kind, emailOf(lead), lead.id, at, new Date(at.getTime() - intervalMs));
}

/**
 * The confirmation destination under the cap. The claim is made when the step runs, by the lead that
 * was journaled: claimed at intake, a request that then lost the race for the same Idempotency-Key
 * to another node would hold the claim, and the journaled lead would go unconfirmed. The claim is
 * dated by the lead's reception, so every retry of the step decides the same way.
 */
export function withConfirmationCap(
  destination: Destination,
  sends: ConfirmationSends,
  intervalMs = CONFIRMATION_INTERVAL_MS,
): Destination {
  const hours = Math.round(intervalMs / 3_600_000);
  return {
    ...destination,
    async deliver(lead, signal) {
      if (!(await mayConfirm(sends, lead, lead.receivedAt, intervalMs))) {
        return `not sent: this address had a confirmation from this form within ${hours} h`;
      }
      return destination.deliver(lead, signal);
    },
  };
}
