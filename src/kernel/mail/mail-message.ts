import type { MailIdentity } from './mail-identity.ts';

export interface MailSettings {
  /** MAIL_FROM: its address sends every e-mail, under the identity's sender name (senderOf). */
  from: string;
  agencyEmail: string;
  siteUrl: string;
  /**
   * The agency's identity and texts (src/kernel/mail/mail-identity.ts), given by the composition
   * root.
   */
  identity: MailIdentity;
  /** BUSINESS_HOURS, for the answer's promised time (docs/emails.md); 09:00–18:00 when absent. */
  businessHours?: { opensAt: number; closesAt: number };
}

export interface MailAddress {
  name: string;
  address: string;
}

/** One e-mail, provider-neutral: nodemailer and Brevo's /smtp/email both take these parts. */
export interface MailMessage {
  /** Stable per lead (or per alert), so a provider can tell a retry from a new message. */
  role:
    | 'confirmation'
    | 'notification'
    | 'dead-letter-alert'
    | 'optin'
    | 'privacy-link'
    | 'privacy-answer'
    | 'team-summary'
    | 'answer';
  to: MailAddress;
  /**
   * docs/emails.md, « La réponse de l’équipe »: the display name this one e-mail is sent under (the
   * staff member's), MAIL_FROM's address kept; unset: the agency's sender name (senderOf).
   */
  senderName?: string;
  /**
   * RFC 5322 3.6.4: the Message-ID (angle brackets included) this e-mail answers, written as
   * `In-Reply-To` and `References` so it threads under that message in the person's mailbox.
   */
  inReplyTo?: string;
  replyTo?: MailAddress;
  subject: string;
  text: string;
  html: string;
  /**
   * RFC 2369: where the recipient unsubscribes (an https URL), for mails of a list; it is also the
   * RFC 8058 one-click address (docs/consent.md), so `List-Unsubscribe-Post` goes with it.
   */
  listUnsubscribe?: string;
  /**
   * The leads an e-mail names besides its own (the team's daily summary): a copy kept of it goes
   * with any of them when a person is erased (docs/consent.md; the outbox reads it back).
   */
  mentions?: readonly string[];
}

/** RFC 8058 3.1: the `List-Unsubscribe-Post` value, also the body a one-click POST carries. */
export const ONE_CLICK_UNSUBSCRIBE = 'List-Unsubscribe=One-Click';

/** MAIL_FROM is either `Name <address>` (the name optionally quoted) or a bare address. */
export function parseMailbox(text: string): MailAddress {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+@[^<>\s]+)>\s*$/.exec(text);
  return match ? { name: match[1] ?? '', address: match[2]! } : { name: '', address: text.trim() };
}

/**
 * Who every e-mail is from (docs/emails.md): MAIL_FROM's address under the agency's sender name,
 * or MAIL_FROM's own name when the identity names none.
 */
export function senderOf(
  settings: Pick<MailSettings, 'from' | 'identity'>,
  message?: Pick<MailMessage, 'senderName'>,
): MailAddress {
  const { name, address } = parseMailbox(settings.from);
  const chosen = message?.senderName ?? settings.identity.senderName;
  return { name: headerSafe(chosen, 70) || name, address };
}

/*
 * Header values come from strangers, and every provider (SMTP, outbox, Brevo) writes them from here
 * (docs/reliability.md, "Hostile input"):
 * - a CR or LF would let them add headers of their own; other control characters (NUL, VT, NEL,
 *   U+2028…) confuse some mail software: each run becomes one space;
 * - an RFC 2047 encoded-word (`=?UTF-8?Q?=0D=0ABcc:…?=`) written verbatim is decoded by the reader's
 *   client into those very CR/LF: `=?` is broken up as `= ?`, which no client decodes;
 * - Unicode format characters (bidi overrides U+202E, marks U+200E, U+FEFF, zero-width spaces) make a
 *   subject read backwards or hide text: dropped, except the zero-width joiner that emoji need.
 * Cut by code point, so a bound never splits an emoji into half a surrogate pair.
 */
const LINE_BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]+/gu;
const INVISIBLE_FORMAT = /(?!\u200d)\p{Cf}/gu;

export function headerSafe(value: string, maxLength: number): string {
  const flat = value
    .replace(LINE_BREAKING, ' ')
    .replace(INVISIBLE_FORMAT, '')
    .replaceAll('=?', '= ?')
    .trim();
  return Array.from(flat).slice(0, maxLength).join('').trim();
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for element content and quoted attribute values alike (e-mails and site pages). */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}
