import EmailReplyParser from 'email-reply-parser';
import type { AddressEvent, AttachmentNote } from './inbound-journal.ts';

/** docs/inbound.md: what is kept of one text, at most (a message's body is rarely a tenth of it). */
const TEXT_MAX = 100_000;

/** One message from a prospect, whichever route brought it (Brevo's JSON or a raw RFC 5322 message). */
export interface ReceivedMail {
  source: 'brevo' | 'raw';
  from: string | undefined;
  messageId: string | undefined;
  /** The Message-IDs it answers: In-Reply-To, then References, newest first. */
  answers: string[];
  subject: string;
  /** The whole text (HTML turned into text by the parser, never kept as HTML). */
  text: string;
  attachments: AttachmentNote[];
}

/** What a bounce or complaint says of one address (Brevo's event, an RFC 3464 report). */
export interface AddressReport {
  address: string;
  /** `unsubscribed` (Brevo): the person asked to hear no more: the opt-out list, no flag. */
  event: AddressEvent | 'unsubscribed';
  reason: string | null;
}

/** `<a@b> <c@d>` or a list of them → each Message-ID once, in order. */
export function messageIds(...values: (string | string[] | undefined)[]): string[] {
  const ids = values
    .flatMap((value) => (Array.isArray(value) ? value : value ? [value] : []))
    .flatMap((value) => value.match(/<[^<>\s]+>/g) ?? []);
  return [...new Set(ids)];
}

/**
 * docs/inbound.md, « Ce que la fiche montre »: the new text and the history the person's mail
 * program quoted below it (« Le … a écrit : », `>` lines), folded on the lead page. The split is
 * email-reply-parser's (GitHub's EmailReplyParser, French quote headers included).
 */
export function splitReply(text: string): { body: string; quoted: string } {
  const fragments = new EmailReplyParser().read(text).getFragments();
  const body = fragments
    .filter((fragment) => !fragment.isQuoted() && !fragment.isHidden())
    .map((fragment) => fragment.getContent())
    .join('\n')
    .trim();
  const quoted = fragments
    .filter((fragment) => fragment.isQuoted() || fragment.isHidden())
    .map((fragment) => fragment.getContent())
    .join('\n')
    .trim();
  // A message that is nothing but quotes (a forward) is shown whole rather than empty.
  return body
    ? { body: body.slice(0, TEXT_MAX), quoted: quoted.slice(0, TEXT_MAX) }
    : { body: text.trim().slice(0, TEXT_MAX), quoted: '' };
}
