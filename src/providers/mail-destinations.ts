import { createHash } from 'node:crypto';
import type { ClaimedStep } from '../domain/deliveries.ts';
import { CONFIRMATION_DESTINATION, type Destination } from '../domain/destination.ts';
import { RefusedError, UpstreamError } from '../domain/errors.ts';
import { isNewsletterSubscription } from '../domain/newsletter.ts';
import type { NewsletterLinks } from '../domain/newsletter-links.ts';
import type { NewsletterJournal } from '../domain/newsletter.ts';
import { leadKindOf } from '../schemas/lead-kinds.ts';
import { emailOf } from '../domain/lead.ts';
import { confirmationEmail } from '../mail/confirmation.ts';
import { doubleOptInEmail } from '../mail/double-opt-in.ts';
import { deadLetterAlert } from '../mail/dead-letter-alert.ts';
import type { MailMessage, MailSettings } from '../mail/mail-message.ts';
import { agencyNotification } from '../mail/notification.ts';

/**
 * Sends one e-mail. `ref` names it for good: the same ref and role is the same message (Brevo's
 * idempotency key, the Message-ID, the outbox file name derive from it). Resolves with an account.
 */
export type SendMail = (
  message: MailMessage,
  ref: { id: string; receivedAt: Date },
  signal: AbortSignal,
) => Promise<string>;

/**
 * What a provider's e-mails need: addresses, the newsletter's signed links (docs/consent.md), and
 * how many subscription requests an address made before, so the agency's notification of a repeat
 * says it is one.
 */
export type ProviderMailSettings = MailSettings & {
  links: NewsletterLinks;
  earlierRequests?: NewsletterJournal['earlierRequests'];
};

/**
 * The e-mail destinations every provider offers, built once over its `send` (docs/delivery.md):
 * the confirmation to the sender (contact requests only, spec 1 and 6), the link asking a new
 * subscriber to confirm (double opt-in, docs/consent.md) and the agency's notification.
 */
export function mailDestinations(
  provider: string,
  settings: ProviderMailSettings,
  send: SendMail,
): Destination[] {
  const { links } = settings;
  return [
    {
      name: CONFIRMATION_DESTINATION,
      provider,
      appliesTo: (lead) => leadKindOf(lead.kind).confirmsToSender,
      deliver: (lead, signal) => send(confirmationEmail(lead, settings), lead, signal),
    },
    {
      name: 'double-opt-in-email',
      provider,
      optIn: 'asks',
      appliesTo: isNewsletterSubscription,
      deliver: async (lead, signal) => {
        const message = doubleOptInEmail(lead, settings, {
          confirmUrl: await links.url('confirm', lead.id),
          unsubscribeUrl: await links.url('unsubscribe', lead.id),
        });
        return send(message, lead, signal);
      },
    },
    {
      name: 'agency-notification',
      provider,
      appliesTo: () => true,
      deliver: async (lead, signal) => {
        const earlier =
          isNewsletterSubscription(lead) && settings.earlierRequests
            ? await settings.earlierRequests(emailOf(lead), lead.receivedAt)
            : 0;
        try {
          return await send(
            agencyNotification(lead, settings, undefined, { earlier }),
            lead,
            signal,
          );
        } catch (error) {
          // Only a visitor's address may be refused for good: the agency's own address refused is a
          // setting to fix (AGENCY_EMAIL), so the notification waits for it, then goes dead and alerts.
          if (!(error instanceof RefusedError)) throw error;
          throw new UpstreamError(`the agency address was refused: ${error.message}`, {
            cause: error,
          });
        }
      },
    },
  ];
}

/** The dead-letter alert through the same `send`; its ref is derived from the steps it lists. */
export async function sendDeadLetterAlert(
  send: SendMail,
  settings: MailSettings,
  dead: readonly ClaimedStep[],
  signal: AbortSignal,
): Promise<void> {
  const names = dead.map((step) => `${step.leadId}/${step.destination}`).sort();
  const id = `alert-${createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 32)}`;
  await send(deadLetterAlert(dead, settings), { id, receivedAt: new Date() }, signal);
}
