import type { CONFIRMATION_STANDINGS } from '../../kernel/schemas/responses.ts';
import type { ConfirmationSends } from '../../kernel/lead/confirmation-cap.ts';
import type { Acceptance } from '../../kernel/lead/deliveries.ts';
import { emailOf, type Lead } from '../../kernel/lead/lead.ts';
import { isNewsletterSubscription } from '../newsletter/index.ts';
import type { OptInSettings } from './new-lead-steps.ts';

/**
 * Where an address stands after a subscription request (docs/consent.md, "What the answer says"):
 * `sent` this request's confirmation link goes to it; `already_sent` another request's link went
 * lately (within the per-mailbox cap) and still awaits the person; `not_needed` the address is on
 * the list already, or no double opt-in is asked. A repeat of the same request (Idempotency-Key, or
 * the same body within 24 h) is the same lead, answered as the first was (docs/reliability.md).
 */
export type ConfirmationStanding = (typeof CONFIRMATION_STANDINGS)[number];

/** The per-mailbox cap (docs/reliability.md), read without claiming. */
export interface ConfirmationCap {
  sends: Pick<ConfirmationSends, 'lastClaim'>;
  intervalMs: number;
}

/**
 * The same decision as the steps planned for the lead (new-lead-steps.ts) and the cap applied when
 * the link's step runs (confirmation-cap.ts), told to the caller. A spam-caught request is told what
 * a real one would be (docs/api-decisions.md, "Bot trap").
 */
export async function confirmationStanding(
  lead: Lead,
  acceptance: Extract<Acceptance, { leadId: string }>,
  newsletter: OptInSettings,
  cap: ConfirmationCap | undefined,
): Promise<ConfirmationStanding | undefined> {
  if (!isNewsletterSubscription(lead)) return undefined;
  const email = emailOf(lead);
  if (!newsletter.doubleOptIn || (await newsletter.journal.isSubscribed(email))) {
    return 'not_needed';
  }
  if (!cap || cap.intervalMs === 0) return 'sent';
  const claim = await cap.sends.lastClaim(lead.kind, email);
  const since = lead.receivedAt.getTime() - cap.intervalMs;
  return claim && claim.leadId !== acceptance.leadId && claim.at.getTime() >= since
    ? 'already_sent'
    : 'sent';
}
