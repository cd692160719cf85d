import { canonicalMailbox } from './canonical-mailbox.ts';
import type { Destination } from './destination.ts';
import type { Lead } from './lead.ts';
import { emailOf } from './lead.ts';

/** docs/reliability.md, "Hostile input": one confirmation per mailbox, endpoint and 24 hours (the default). */
export const CONFIRMATION_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** docs/reliability.md: confirmation e-mails per recipient domain and hour (the default). */
export const CONFIRMATION_DOMAIN_PER_HOUR = 20;

const HOUR_MS = 60 * 60 * 1000;

/** The caps a confirmation must pass; 0 turns either off. */
export interface ConfirmationCaps {
  intervalMs: number;
  domainPerHour: number;
}

export const DEFAULT_CAPS: ConfirmationCaps = {
  intervalMs: CONFIRMATION_INTERVAL_MS,
  domainPerHour: CONFIRMATION_DOMAIN_PER_HOUR,
};

/** One claim: a lead's right to confirm to a mailbox, under both caps. */
export interface ConfirmationClaim {
  /** A lead kind, or another bucket of the cap (a privacy request's link: docs/consent.md). */
  kind: string;
  /** canonicalMailbox(): the key of the per-mailbox cap. */
  mailbox: string;
  /** The mailbox's domain: the key of the per-domain cap. */
  domain: string;
  leadId: string;
  at: Date;
  /** Another lead's claim on this mailbox and kind since then refuses this one. */
  since: Date;
  /** This many claims at the domain since `domainSince` (any kind) refuse this one; 0 = no cap. */
  domainMax: number;
  domainSince: Date;
}

/**
 * Who got a confirmation lately, per endpoint and mailbox, in the journal database (so every node
 * sees the same). Anyone can type a stranger's address into a form; without a cap, 40 requests are
 * 40 e-mails to that stranger from the agency's domain, and a hundred invented addresses at one
 * domain make the agency's sending domain a spam source.
 */
export interface ConfirmationSends {
  /**
   * Claims the right to confirm `leadId`: true when no other lead of that mailbox and kind claimed
   * it since `since` and the domain has fewer than `domainMax` claims since `domainSince` (or when
   * `leadId` itself holds it: a re-delivery). Atomic per node; nodes racing on one domain may
   * overshoot its hourly cap by the claims they make at the same instant.
   */
  claim(claim: ConfirmationClaim): Promise<boolean>;
  /** The last claim for this address and kind, to tell a caller whether an e-mail went lately. */
  lastClaim(kind: string, email: string): Promise<{ leadId: string; at: Date } | undefined>;
}

/**
 * Decides whether this lead's confirmation may go out. The lead itself is still journaled and the
 * agency still notified: only the e-mail to the unverified address is held back. The claim is
 * dated by the lead's reception, so every retry of the step (and the notification, which asks the
 * same question) decides the same way.
 */
export async function mayConfirm(
  sends: ConfirmationSends,
  lead: Lead,
  { intervalMs, domainPerHour }: ConfirmationCaps = DEFAULT_CAPS,
): Promise<boolean> {
  if (intervalMs === 0 && domainPerHour === 0) return true;
  const at = lead.receivedAt;
  const { mailbox, domain } = canonicalMailbox(emailOf(lead));
  return sends.claim({
    kind: lead.kind,
    mailbox,
    domain,
    leadId: lead.id,
    at,
    // No per-mailbox cap: a claim from one millisecond later is never refused by it.
    since: new Date(at.getTime() - intervalMs),
    domainMax: domainPerHour,
    domainSince: new Date(at.getTime() - HOUR_MS),
  });
}

/**
 * The confirmation destination under the caps. The claim is made when the step runs, by the lead
 * that was journaled: claimed at intake, a request that then lost the race for the same
 * Idempotency-Key to another node would hold the claim, and the journaled lead would go unconfirmed.
 */
export function withConfirmationCap(
  destination: Destination,
  sends: ConfirmationSends,
  caps: ConfirmationCaps = DEFAULT_CAPS,
): Destination {
  return {
    ...destination,
    async deliver(lead, signal) {
      if (!(await mayConfirm(sends, lead, caps))) return CONFIRMATION_HELD_BACK;
      return destination.deliver(lead, signal);
    },
  };
}

/** The step's account when the caps hold the e-mail back (docs/reliability.md). */
export const CONFIRMATION_HELD_BACK =
  'not sent: this mailbox had a confirmation from this form lately, or its domain had too many this hour';

/**
 * The agency's notification told whether the e-mail to the person was held back by the caps
 * (`lead.confirmationHeldBack`), for the leads that get one: it asks the same claim as the
 * confirmation step (whichever runs first makes it; the other reads the same answer).
 */
export function withHeldBackFlag(
  notification: Destination,
  capped: readonly Destination[],
  sends: ConfirmationSends,
  caps: ConfirmationCaps = DEFAULT_CAPS,
): Destination {
  return {
    ...notification,
    async deliver(lead, signal) {
      if (!capped.some((destination) => destination.appliesTo(lead))) {
        return notification.deliver(lead, signal);
      }
      const confirmationHeldBack = !(await mayConfirm(sends, lead, caps));
      return notification.deliver({ ...lead, confirmationHeldBack }, signal);
    },
  };
}
