import fc from 'fast-check';
import nodemailer from 'nodemailer';
import PostalMime, { type Email } from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { headerSafe, type MailMessage } from '../../../src/kernel/mail/mail-message.ts';
import { composeMime, type MimeEnvelope } from '../../../src/kernel/mail/mime-message.ts';

const ENVELOPE: MimeEnvelope = {
  from: { name: 'Agence Test', address: 'bonjour@agence-test.fr' },
  messageId: '<01JD5X2Q7R8S9T0V1W2X3Y4Z5A.notification@agence-test.fr>',
  date: new Date('2026-11-23T13:05:09Z'),
};

const NOTIFICATION: MailMessage = {
  role: 'notification',
  to: { name: 'Agence', address: 'equipe@agence-test.fr' },
  replyTo: { name: 'Zoé 🙂 « Dupont, \\ "la" »', address: 'zoe@example.fr' },
  subject: 'Nouvelle demande de contact : Zoé',
  text: `Reçue le 23 novembre.\nDEMANDE : ${'Référencement local à Besançon, '.repeat(8)}\r\nfin `,
  html: '<!doctype html><html lang="fr"><body><p>Référencement &amp; « site »</p></body></html>',
};

async function parse(raw: Buffer): Promise<Email> {
  return PostalMime.parse(raw);
}

function headOf(raw: Buffer): string {
  return raw.toString('latin1').split('\r\n\r\n')[0]!;
}

/** What a reader sees of a message's headers. */
function headersSeen(email: Email) {
  return {
    from: email.from,
    to: email.to,
    replyTo: email.replyTo,
    subject: email.subject,
    messageId: email.messageId,
    listUnsubscribe: email.headers.find((header) => header.key === 'list-unsubscribe')?.value,
  };
}

/**
 * A body reads back as given, line breaks aside: every line break is sent as CRLF, and postal-mime
 * gives a quoted-printable part's back as LF. It also keeps the line break that ends such a part
 * (RFC 2046 5.1.1 gives it to the boundary): one trailing LF is allowed.
 */
function expectBody(decoded: string | undefined, given: string) {
  const lines = (text: string) => text.replace(/\r\n|\r|\n/g, '\n');
  expect([lines(given), `${lines(given)}\n`]).toContain(lines(decoded ?? ''));
}

/** What the parser forgives but RFC 5322, 2045 and 2047 require of the bytes themselves. */
function expectWellFormed(raw: Buffer) {
  const text = raw.toString('latin1');
  expect(text).toMatch(/^[\t\x20-\x7e\r\n]*$/);
  expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  const [head, ...parts] = text.split('\r\n\r\n');
  // RFC 5322 2.1.1 and 2.2.3: lines within 78 characters, unless a single word is longer.
  for (const line of head!.split('\r\n')) {
    expect(line).not.toMatch(/^\s*$/);
    expect(line.length).toBeLessThanOrEqual(998);
    if (line.length > 78) expect(line.replace(/^[\w-]+:/, '').trim()).not.toMatch(/\s/);
  }
  // RFC 2047 2 and 5: an encoded-word is one token of at most 75 characters, Q words carry no space.
  for (const word of head!.match(/=\?\S*/g) ?? []) {
    expect(word).toMatch(/^=\?UTF-8\?(Q\?[A-Za-z0-9!*+\-/=_]*|B\?[A-Za-z0-9+/]*=*)\?=$/);
    expect(word.length).toBeLessThanOrEqual(75);
  }
  // RFC 2045 6.7 (3) and (5): no whitespace at the end of a line, lines of at most 76 characters.
  for (const line of parts.join('\r\n\r\n').split('\r\n')) {
    expect(line.length).toBeLessThanOrEqual(76);
    expect(line).not.toMatch(/[ \t]$/);
  }
}

const nodemailerOutbox = nodemailer.createTransport({
  streamTransport: true,
  buffer: true,
  newline: 'windows',
});

/** The same message composed by nodemailer, as the outbox did before (bench/mail-compose.ts). */
async function byNodemailer(message: MailMessage, envelope: MimeEnvelope): Promise<Buffer> {
  const info = await nodemailerOutbox.sendMail({
    from: envelope.from,
    to: message.to,
    replyTo: message.replyTo,
    subject: message.subject,
    text: message.text,
    html: message.html,
    messageId: envelope.messageId,
    date: envelope.date,
    ...(message.listUnsubscribe && { list: { unsubscribe: message.listUnsubscribe } }),
  });
  return info.message as Buffer;
}

describe('composeMime writes RFC 5322 / MIME messages a real parser reads back (docs/performance.md)', () => {
  it('headers, both alternatives and non-ASCII text survive, read by postal-mime', async () => {
    const raw = composeMime(NOTIFICATION, ENVELOPE);
    const email = await parse(raw);
    expect(email.from).toEqual({ name: 'Agence Test', address: 'bonjour@agence-test.fr' });
    expect(email.to).toEqual([{ name: 'Agence', address: 'equipe@agence-test.fr' }]);
    expect(email.replyTo).toEqual([NOTIFICATION.replyTo]);
    expect(email.subject).toBe(NOTIFICATION.subject);
    expect(email.messageId).toBe(ENVELOPE.messageId);
    expect(email.date).toBe('2026-11-23T13:05:09.000Z');
    expectBody(email.text, NOTIFICATION.text);
    expectBody(email.html, NOTIFICATION.html);
    expect(email.headers.map((header) => header.key)).not.toContain('list-unsubscribe');
  });

  it('is 7-bit, CRLF only, folded headers, strict encoded-words, QP lines within 76', () => {
    const long = {
      ...NOTIFICATION,
      subject: `${'Très longue demande '.repeat(6)}: Zoé`,
      text: 'espaces en fin de ligne  \n\ttabulation\t\nfin\t',
    };
    expectWellFormed(composeMime(long, ENVELOPE));
  });

  it('folds a header before a run of spaces, so no line over 78 holds a space (RFC 5322 2.2.3)', async () => {
    // The property below found it (seed 859857618): folding only before a single space let the
    // run of spaces in this Reply-To name carry its line to 79 characters.
    const name = '--=_leadgate_alternative --=_leadgate_alternative             =From  -';
    const raw = composeMime(
      { ...NOTIFICATION, replyTo: { name, address: 'zoe@example.fr' } },
      ENVELOPE,
    );
    expectWellFormed(raw);
    expect(headOf(raw)).toContain(
      'Reply-To: "--=_leadgate_alternative --=_leadgate_alternative             =From\r\n  -" <zoe@example.fr>',
    );
    expect((await parse(raw)).replyTo).toEqual([{ name, address: 'zoe@example.fr' }]);
  });

  it('writes List-Unsubscribe in angle brackets when the message has one (RFC 2369)', async () => {
    const url = 'https://agence-test.fr/desinscription?jeton=abc123';
    const email = await parse(composeMime({ ...NOTIFICATION, listUnsubscribe: url }, ENVELOPE));
    expect(headersSeen(email).listUnsubscribe).toBe(`<${url}>`);
  });

  it('mostly non-Latin text goes in base64 and reads back the same', async () => {
    const text = 'Ελληνικά και русский текст 🙂🙂🙂';
    const raw = composeMime({ ...NOTIFICATION, text, html: `<p>${text}</p>` }, ENVELOPE);
    expect(raw.toString('latin1')).toContain('Content-Transfer-Encoding: base64');
    const email = await parse(raw);
    expect(email.text).toBe(text);
    expect(email.html).toBe(`<p>${text}</p>`);
  });

  it('an encoded-word typed as text is read as that text, never decoded (docs/reliability.md)', async () => {
    const subject = '=?UTF-8?Q?=0D=0ABcc:_x@evil.example?=';
    const raw = composeMime({ ...NOTIFICATION, subject }, ENVELOPE);
    const email = await parse(raw);
    expect(email.subject).toBe(subject);
    expect(email.headers.map((header) => header.key)).not.toContain('bcc');
    expect(headOf(raw)).not.toContain('x@evil.example');
  });

  it('refuses to write an address, a Message-ID or a URL that would break its header', () => {
    const cases: [Partial<MailMessage>, Partial<MimeEnvelope>][] = [
      [{ to: { name: '', address: 'a@b.fr\r\nBcc: c@d.fr' } }, {}],
      [{ to: { name: '', address: 'a@b.fr, c@d.fr' } }, {}],
      [{ replyTo: { name: 'x', address: 'a@b.fr>' } }, {}],
      [{ listUnsubscribe: 'https://a.fr/>\r\nBcc: c@d.fr' }, {}],
      [{}, { messageId: '<a@b.fr>\r\nBcc: <c@d.fr>' }],
    ];
    for (const [message, envelope] of cases) {
      expect(() =>
        composeMime({ ...NOTIFICATION, ...message }, { ...ENVELOPE, ...envelope }),
      ).toThrow(/not writable in a mail header/);
    }
  });

  it('headers read back like nodemailer’s, bodies as given, over generated hostile and non-ASCII input', async () => {
    const piece = fc.oneof(
      fc.constantFrom('=?', '?=', '"', '\\', ',', ';', '<', '>', ':', '_', '=', '.', ' ', '  '),
      fc.constantFrom('\t', '\r\n', '\n', '\r', ' \r\n', '\u202e', '\u200b', '\0'),
      fc.constantFrom('é', '’', 'À', '🙂', '👩‍💻', 'Ω', 'ж', '中', '\u00a0'),
      fc.constantFrom('--=_leadgate_alternative', '.', 'From ', 'x'.repeat(90)),
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
    );
    const text = fc.array(piece, { maxLength: 60 }).map((pieces) => pieces.join(''));
    // Names and subjects from strangers pass through headerSafe, as the e-mail builders do.
    const headerText = (max: number) => text.map((value) => headerSafe(value, max));
    await fc.assert(
      fc.asyncProperty(
        headerText(150),
        headerText(70),
        text,
        text,
        fc.boolean(),
        async (subject, name, plain, html, unsubscribe) => {
          const message: MailMessage = {
            ...NOTIFICATION,
            subject,
            replyTo: { name, address: 'zoe@example.fr' },
            text: plain,
            html,
            ...(unsubscribe && { listUnsubscribe: 'https://agence-test.fr/d?j=1' }),
          };
          const raw = composeMime(message, ENVELOPE);
          expectWellFormed(raw);
          const ours = await parse(raw);
          const theirs = await parse(await byNodemailer(message, ENVELOPE));
          expect(headersSeen(ours)).toEqual(headersSeen(theirs));
          expectBody(ours.text, plain);
          expectBody(ours.html, html);
        },
      ),
      { numRuns: 300 },
    );
  });
});
