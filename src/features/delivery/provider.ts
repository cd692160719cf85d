import type { AgencyAlert } from './alerts.ts';
import type { Destination } from '../../kernel/lead/destination.ts';

/**
 * What the domain knows of an e-mail it asks a provider to send (src/kernel/mail/mail-message.ts).
 */
export interface OutgoingMail {
  role: string;
  to: { address: string };
  subject: string;
}

/**
 * The e-mail/CRM account leads are handed to (MAIL_PROVIDER). It offers destinations, one journaled
 * step each per lead (docs/delivery.md); their `deliver` throws UpstreamError when the provider
 * fails, RefusedError when it refuses for good, ConfigurationError when it cannot work at all.
 */
export interface Provider {
  readonly name: string;
  readonly destinations: readonly Destination[];
  /**
   * Tells the agency about a delivery alert (docs/delivery.md, « Alerts »): by e-mail, and through
   * ALERT_WEBHOOK_URL when set (the only channel tried when `alert.mailPathFailing` and it is set).
   */
  alertAgency(alert: AgencyAlert, signal: AbortSignal): Promise<void>;
  /**
   * Erases what the provider keeps about an address (RGPD art. 17, docs/consent.md), its contact or
   * the messages of these leads and privacy requests (their ids); resolves with a sentence for the operator that does not repeat the
   * address. Safe to call again: nothing left to erase is not an error. A provider without it keeps
   * nothing about people.
   */
  forget?(address: string, leadIds: readonly string[], signal: AbortSignal): Promise<string>;
  /**
   * Sends one e-mail outside any lead's steps: a privacy request's link or answer (docs/consent.md,
   * "Requests about one's data"). `message` is one of the e-mails
   * (src/kernel/mail/mail-message.ts); `ref` names it for good, as a lead does its own.
   */
  sendMail?(
    message: OutgoingMail,
    ref: { id: string; receivedAt: Date },
    signal: AbortSignal,
  ): Promise<string>;
  /**
   * `leadgate config check` (docs/brevo.md): reads, without changing anything, whether the
   * provider's account holds what leadgate will send (attributes, lists, a validated sender); one
   * French line per thing missing, none when all is there. A provider without an account to read
   * has none.
   */
  checkAccount?(signal: AbortSignal): Promise<string[]>;
  close(): Promise<void>;
}
