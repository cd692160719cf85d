import { ONE_CLICK_UNSUBSCRIBE, type MailAddress, type MailMessage } from './mail-message.ts';
import {
  base64Lines,
  crlfLines,
  encodedWords,
  headerLine,
  prefersQuotedPrintable,
  quotedPrintable,
} from './mime-encoding.ts';

/** What a provider adds to a message to make it one: who sends it, its Message-ID, when. */
export interface MimeEnvelope {
  from: MailAddress;
  /** With its angle brackets: `<lead id.role@site host>`. */
  messageId: string;
  date: Date;
}

/*
 * Composed by hand, not by a library: nodemailer's MailComposer builds a tree of MIME nodes and
 * pipes each message through several streams, about 0.5 ms of CPU per message (docs/performance.md),
 * and no small library writes our one shape (text and HTML alternatives, UTF-8) faster. This one is
 * a single pass per part; test/kernel/mail/mime-message.test.ts reads its output back with a real
 * parser.
 *
 * The boundary cannot occur in a part: both are quoted-printable or base64, and neither ever writes
 * `=_` (in quoted-printable `=` is followed by two hex digits or a line break).
 */
const BOUNDARY = '=_leadgate_alternative';

/** The leads an e-mail names (MailMessage.mentions), space-separated: ids, never a person's data. */
export const MENTIONS_HEADER = 'X-Leadgate-Leads';
const LEAD_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** One e-mail as RFC 5322 / MIME bytes with CRLF line breaks, as SMTP sends it and `.eml` keeps it. */
export function composeMime(message: MailMessage, envelope: MimeEnvelope): Buffer {
  let head =
    headerLine('From', mailbox(envelope.from)) +
    headerLine('To', mailbox(message.to)) +
    (message.replyTo ? headerLine('Reply-To', mailbox(message.replyTo)) : '') +
    headerLine('Subject', unstructured(message.subject)) +
    headerLine('Message-ID', checked(envelope.messageId, MESSAGE_ID)) +
    headerLine('Date', envelope.date.toUTCString().replace('GMT', '+0000'));
  if (message.inReplyTo) {
    const parent = checked(message.inReplyTo, MESSAGE_ID);
    head += headerLine('In-Reply-To', parent) + headerLine('References', parent);
  }
  // RFC 2369 3.2: angle brackets around the URL; RFC 8058: a POST to it unsubscribes at once.
  if (message.listUnsubscribe) {
    head += headerLine('List-Unsubscribe', `<${checked(message.listUnsubscribe, URL_TEXT)}>`);
    head += headerLine('List-Unsubscribe-Post', ONE_CLICK_UNSUBSCRIBE);
  }
  if (message.mentions?.length) {
    head += headerLine(
      MENTIONS_HEADER,
      message.mentions.map((id) => checked(id, LEAD_ID)).join(' '),
    );
  }
  head +=
    'MIME-Version: 1.0\r\n' + `Content-Type: multipart/alternative;\r\n boundary="${BOUNDARY}"\r\n`;
  return Buffer.from(
    `${head}\r\n` +
      `--${BOUNDARY}\r\n${part('text/plain', message.text)}\r\n` +
      `--${BOUNDARY}\r\n${part('text/html', message.html)}\r\n` +
      `--${BOUNDARY}--\r\n`,
    'utf8',
  );
}

function part(type: string, content: string): string {
  const text = crlfLines(content);
  const quoted = prefersQuotedPrintable(text);
  return (
    `Content-Type: ${type}; charset=utf-8\r\n` +
    `Content-Transfer-Encoding: ${quoted ? 'quoted-printable' : 'base64'}\r\n\r\n` +
    (quoted ? quotedPrintable(text) : base64Lines(text))
  );
}

/**
 * Unstructured text (a subject) as is when it is printable ASCII; otherwise, or when it holds `=?`
 * (which a reader would try to decode), entirely as encoded-words: the reader gets back exactly
 * the characters given, never a header of their own (docs/reliability.md, "Hostile input").
 */
function unstructured(value: string): string {
  return /^[\x20-\x7e]*$/.test(value) && !value.includes('=?') ? value : encodedWords(value);
}

/**
 * RFC 5322 3.4: a display name is written bare when it is letters, digits and spaces only, as a
 * quoted-string when it is other printable ASCII, as encoded-words otherwise.
 */
function mailbox({ name, address }: MailAddress): string {
  const spec = checked(address, ADDRESS);
  if (!name) return spec;
  if (/^[\w ]+$/.test(name)) return `${name} <${spec}>`;
  const phrase = unstructured(name);
  return `${phrase === name ? `"${name.replace(/[\\"]/g, '\\$&')}"` : phrase} <${spec}>`;
}

/*
 * An address, the Message-ID and a URL go out as given, so each must be what its header expects:
 * anything else is a bug upstream (the schemas and the configuration check them), and is refused
 * rather than written into a header where it could start another one.
 */
const ADDRESS = /^[^\s\p{Cc}<>()[\]\\,;:"@]+@[^\s\p{Cc}<>()[\]\\,;:"@]+$/u;
/** RFC 5322 3.6.4: a dot-atom, `@`, a domain or an address literal (SITE_URL's host). */
const MESSAGE_ID = /^<[\w.!#$%&'*+/=?^`{|}~-]+@([\w.-]+|\[[\w.:]+\])>$/;
/** RFC 3986 characters, none of which can end the angle brackets around it. */
const URL_TEXT = /^[\x21-\x3b\x3d\x3f-\x7e]+$/;

function checked(value: string, writable: RegExp): string {
  if (!writable.test(value)) {
    throw new Error(`not writable in a mail header: ${JSON.stringify(value.slice(0, 80))}`);
  }
  return value;
}
