import type { Lead } from '../domain/lead.ts';

export interface DeliveryReceipt {
  /** Set when the provider itself knows whether the address was already on its list (Brevo does). */
  existing?: boolean;
  /** A short account of what the provider answered, kept in the journal. */
  detail: string;
}

/**
 * Hands a stored lead to the outside world (e-mails, CRM). Implementations throw UpstreamError when
 * the provider fails and ConfigurationError when they cannot work at all; they honour `signal`.
 */
export interface Provider {
  readonly name: string;
  deliver(lead: Lead, signal: AbortSignal): Promise<DeliveryReceipt>;
  close(): Promise<void>;
}
