import { createHash } from 'node:crypto';
import type { AgencyAlert } from '../features/delivery/alerts.ts';
import { CONFIRMATION_DESTINATION, type Destination } from '../kernel/lead/destination.ts';
import { MisconfiguredError, RefusedError } from '../kernel/lead/errors.ts';
import { isNewsletterSubscription } from '../features/newsletter/newsletter.ts';
import type { NewsletterLinks } from '../features/newsletter/newsletter-links.ts';
import type { NewsletterJournal } from '../features/newsletter/newsletter.ts';
import { leadKindOf } from '../kernel/schemas/lead-kinds.ts';
import { emailOf } from '../kernel/lead/lead.ts';
import { confirmationEmail } from '../features/intake/confirmation-email.ts';
import { doubleOptInEmail } from '../features/newsletter/double-opt-in-email.ts';
import { alertEmail } from '../features/delivery/dead-letter-alert-email.ts';
import type { MailMessage, MailSettings } from '../kernel/mail/mail-message.ts';
import { agencyNotification } from '../features/intake/notification-email.ts';
import { answerEmail } from '../features/answers/answer-email.ts';
import { ANSWER_DESTINATION, type AnswerJournal } from '../features/answers/answers.ts';

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
  /** docs/workspace.md, « Répondre »: the team's e-mail answers waiting to leave. */
  answers?: Pick<AnswerJournal, 'unsent' | 'markSent'>;
  /** INBOUND_ADDRESS: where a person's reply to an answer goes; unset, AGENCY_EMAIL. */
  inboundAddress?: string;
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
  /** The setting that says where the provider is reached (Destination.reachedThrough). */
  reachedThrough?: string,
): Destination[] {
  const { links, answers } = settings;
  // docs/delivery.md, « Each destination its own slots »: the provider's e-mails share one lane.
  const mail = { provider, lane: `${provider}:email`, sendsMail: true, reachedThrough } as const;
  return [
    {
      name: CONFIRMATION_DESTINATION,
      ...mail,
      appliesTo: (lead) => leadKindOf(lead.kind).confirmsToSender,
      deliver: (lead, signal) => send(confirmationEmail(lead, settings), lead, signal),
    },
    {
      name: 'double-opt-in-email',
      ...mail,
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
      ...mail,
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
          // setting to fix (AGENCY_EMAIL), so the notification waits for it and the agency is alerted.
          if (!(error instanceof RefusedError)) throw error;
          throw new MisconfiguredError(
            'the agency notification was refused',
            {
              cause: `${provider}:agency-email`,
              fix: `AGENCY_EMAIL : ${provider} refuse cette adresse (à vérifier, ou une autre à choisir)`,
              said: saidBy(error),
            },
            { cause: error },
          );
        }
      },
    },
    ...(answers
      ? [
          {
            name: ANSWER_DESTINATION,
            ...mail,
            // Planned only when a staff member answers (src/features/answers/sql-answers.ts).
            appliesTo: () => false,
            deliver: async (lead, signal) => {
              const replyTo = settings.inboundAddress ?? settings.agencyEmail;
              const sent: string[] = [];
              // Every answer journaled and not sent yet; its ref is the answer's, so a retry after a
              // lost settle is the same message (the same Message-ID, Brevo's same idempotency key).
              // One journaled during this run plans the step again, and the journal leaves it due
              // after this run (docs/delivery.md, « The dispatcher »): the next run sends it.
              for (const answer of await answers.unsent(lead.id)) {
                const message = answerEmail(lead, answer, settings, replyTo);
                const detail = await send(
                  message,
                  { id: answer.id, receivedAt: lead.receivedAt },
                  signal,
                );
                await answers.markSent(answer.id, detail, new Date());
                sent.push(detail);
              }
              return sent.join('; ') || 'aucune réponse à envoyer';
            },
          } satisfies Destination,
        ]
      : []),
  ];
}

/** A delivery alert through the same `send`; its ref derives from the alert's id. */
export async function sendAlertEmail(
  send: SendMail,
  settings: MailSettings,
  alert: AgencyAlert,
  signal: AbortSignal,
): Promise<void> {
  const id = `alert-${createHash('sha256').update(alert.id).digest('hex').slice(0, 32)}`;
  await send(alertEmail(alert, settings), { id, receivedAt: new Date() }, signal);
}

/** The innermost provider's words behind an error (`550 5.1.1 …`, `400 invalid_parameter: …`). */
export function saidBy(error: Error): string {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return (current as Error).message;
}
