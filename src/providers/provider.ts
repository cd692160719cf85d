import type { Lead } from '../domain/lead.ts';

export interface DeliveryReceipt {
  /** Set when the provider itself knows whether the address was already on its list (Brevo does). */
  existing?: boolean;
  /** A short account of what the provider answered, kept in the journal. */
  detail: string;
}

/**
 * Issue 4: the e-mails of this lead that an earlier attempt already handed over. A provider that sends
 * several messages skips those and records each new one as soon as it is accepted, so a re-delivery
 * never sends a second confirmation. (Brevo gets the same guarantee from its own idempotency key.)
 * The last message may go unrecorded: the lead's `delivered` status, written next, covers it.
 */
export interface HandoffLedger {
  readonly done: ReadonlySet<string>;
  record(role: string): Promise<void>;
}

/**
 * Hands a stored lead to the outside world (e-mails, CRM). Implementations throw UpstreamError when
 * the provider fails and ConfigurationError when they cannot work at all; they honour `signal`.
 */
export interface Provider {
  readonly name: string;
  deliver(lead: Lead, signal: AbortSignal, handoffs?: HandoffLedger): Promise<DeliveryReceipt>;
  close(): Promise<void>;
}
