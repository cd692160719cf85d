import { createHash } from 'node:crypto';
import {
  ONE_CLICK_UNSUBSCRIBE,
  parseMailbox,
  type MailAddress,
  type MailMessage,
} from '../../kernel/mail/mail-message.ts';
import { BrevoError, type BrevoClient } from './brevo-client.ts';

/** Brevo caps sender, recipient and replyTo names at 70 characters (definition sendSmtpEmail_*). */
const NAME_LIMIT = 70;

interface BrevoAddress {
  email: string;
  name?: string;
}

/** Body of Brevo's `POST /smtp/email` (definition `sendSmtpEmail`), the parts we use. */
export interface SendSmtpEmail {
  sender?: BrevoAddress;
  to: BrevoAddress[];
  replyTo?: BrevoAddress;
  subject?: string;
  htmlContent?: string;
  textContent?: string;
  templateId?: number;
  /** Brevo's idempotency key, and headers written as given (RFC 8058 one-click unsubscribe). */
  headers: { idempotencyKey: string } & Record<string, string>;
  tags: string[];
}

export interface EmailOptions {
  /**
   * Who sends it: MAIL_FROM's address under the agency's name (senderOf,
   * src/kernel/mail/mail-message.ts).
   */
  sender: MailAddress;
  /** BREVO_CONTACT_TEMPLATE_ID: the confirmation then uses the account's template. */
  confirmationTemplateId?: number;
}

export function emailPayload(
  leadId: string,
  message: MailMessage,
  options: EmailOptions,
): SendSmtpEmail {
  const common = {
    to: [brevoAddress(message.to)],
    ...(message.replyTo && { replyTo: brevoAddress(message.replyTo) }),
    headers: {
      ...(message.listUnsubscribe && {
        'List-Unsubscribe': `<${message.listUnsubscribe}>`,
        'List-Unsubscribe-Post': ONE_CLICK_UNSUBSCRIBE,
      }),
      // docs/emails.md, « La réponse de l’équipe »: threads under the confirmation it answers.
      ...(message.inReplyTo && {
        'In-Reply-To': message.inReplyTo,
        References: message.inReplyTo,
      }),
      idempotencyKey: idempotencyKey(leadId, message.role),
    },
    tags: [`leadgate-${message.role}`],
  };
  if (message.role === 'confirmation' && options.confirmationTemplateId !== undefined) {
    // The template carries its own subject, sender and words; we pass no params, because the
    // confirmation must not echo what a stranger typed (see
    // src/features/intake/confirmation-email.ts).
    return { ...common, templateId: options.confirmationTemplateId };
  }
  return {
    ...common,
    sender: brevoAddress(options.sender),
    subject: message.subject,
    htmlContent: message.html,
    textContent: message.text,
  };
}

/**
 * docs/brevo.md: Brevo refuses a second `/smtp/email` with the same `headers.idempotencyKey` (a UUID) for
 * 30 minutes. Deriving the key from the lead id and the e-mail's role (a name-based UUID, RFC 9562
 * version 5) makes a retry or a replay of the same lead reuse it, so nobody gets two confirmations.
 */
export function idempotencyKey(leadId: string, role: MailMessage['role']): string {
  const bytes = createHash('sha1')
    .update(NAMESPACE)
    .update(`${leadId}/${role}`)
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** leadgate's own namespace UUID (random, fixed forever: changing it would change every key). */
const NAMESPACE = Buffer.from('6f1c2d9e4b7a4e0f9a3c5d8e7b1a2c40', 'hex');

/** Sends one e-mail; a reused idempotency key means Brevo already took this very e-mail: success. */
export async function sendEmail(
  post: BrevoClient,
  payload: SendSmtpEmail,
  signal: AbortSignal,
): Promise<string> {
  try {
    const answer = await post('/smtp/email', payload, signal);
    const messageId = (answer.body as { messageId?: unknown } | undefined)?.messageId;
    return typeof messageId === 'string' ? messageId : `accepted (${answer.status})`;
  } catch (error) {
    if (error instanceof BrevoError && error.code === 'duplicate_parameter') {
      return `already sent (key ${payload.headers.idempotencyKey})`;
    }
    throw error;
  }
}

function brevoAddress({ name, address }: MailAddress): BrevoAddress {
  const shortName = [...name].slice(0, NAME_LIMIT).join('').trim();
  return shortName ? { email: address, name: shortName } : { email: address };
}

/** The sender of every e-mail, from MAIL_FROM. */
export function parseSender(from: string): BrevoAddress {
  return brevoAddress(parseMailbox(from));
}
