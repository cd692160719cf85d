import type { Lead } from './lead.ts';

/**
 * One place a lead is handed to: the CRM, the confirmation to the sender, the agency's notification,
 * a webhook. Each lead gets one journaled step per destination that applies to it, delivered and
 * retried on its own (docs/delivery.md explains how to add one).
 */
export interface Destination {
  /** Stored with each step, so never renamed: `crm-contact`, `agency-notification`, `webhook:crm`… */
  readonly name: string;
  /**
   * Who performs it (`brevo`, `smtp`, `outbox`, `webhook`), stored with the step: a process configured
   * with another provider leaves the step alone instead of "delivering" it elsewhere.
   */
  readonly provider: string;
  /**
   * Delivered by the background loop only, never within the person's request in DELIVERY=sync: the
   * agency's own tools (webhooks) being down is not the person's error (docs/webhooks.md).
   */
  readonly backgroundOnly?: boolean;
  /**
   * Its part in the newsletter's double opt-in (docs/consent.md): `asks` is the e-mail asking the
   * person to confirm, planned only under NEWSLETTER_DOUBLE_OPT_IN; `awaits` puts a subscription on
   * the list, planned at acceptance without double opt-in, on confirmation with it; `withdraws`
   * takes the address off the list, planned when the person unsubscribes. Unset: every lead's step.
   */
  readonly optIn?: 'asks' | 'awaits' | 'withdraws';
  /**
   * Destinations of the same lead whose unfinished steps must end first (docs/consent.md): taking an
   * address off a list waits until the step that puts it there has run, or a person who unsubscribed
   * while that step was still waiting (a provider's bad minute) would be put back on the list.
   */
  readonly after?: readonly string[];
  /**
   * The calls it shares its slots with (docs/delivery.md, « Each destination its own slots »): one
   * provider's contact calls, its e-mails, one webhook URL. A lane that hangs holds only its own
   * slots. Unset: the destination's name.
   */
  readonly lane?: string;
  /**
   * The setting that says where it is reached (`SMTP_URL`, `BREVO_API_URL`, `WEBHOOK_URLS`): what
   * an alert asks to check when it does not answer (docs/delivery.md, « Alerts »).
   */
  readonly reachedThrough?: string;
  /** Deadline of one attempt (WEBHOOK_TIMEOUT_MS for a webhook); unset: PROVIDER_TIMEOUT_MS. */
  readonly timeoutMs?: number;
  /**
   * It sends e-mail through the provider the agency's alert e-mails also take: when it fails, an
   * alert goes by the other channel (ALERT_WEBHOOK_URL, docs/delivery.md, « Alerts »).
   */
  readonly sendsMail?: boolean;
  /** Whether this lead has this step (spec 1 and 6: only a contact request is confirmed to its sender). */
  appliesTo(lead: Lead): boolean;
  /**
   * Hands the lead over once, within `signal`. Resolves with a short account for the journal; throws
   * RefusedError when refused for good, ConfigurationError when it cannot work, anything else to be
   * retried later.
   */
  deliver(lead: Lead, signal: AbortSignal): Promise<string>;
}

/** The confirmation to the sender, the one destination under the per-address cap (docs/reliability.md). */
export const CONFIRMATION_DESTINATION = 'confirmation-email';

/** A step as the journal names it: which destination, through which provider. */
export interface StepTarget {
  destination: string;
  provider: string;
  /** The destination's `after`, where a step is claimed. */
  after?: readonly string[];
}

export function targetOf(destination: Destination): StepTarget {
  const target = { destination: destination.name, provider: destination.provider };
  return destination.after ? { ...target, after: destination.after } : target;
}
