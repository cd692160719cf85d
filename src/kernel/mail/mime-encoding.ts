/*
 * The encoders of the MIME composer (src/kernel/mail/mime-message.ts): bodies in quoted-printable
 * or base64 (RFC 2045 6.7, 6.8), header text in RFC 2047 encoded-words, header lines folded (RFC
 * 5322 2.2.3). Each is one pass over the text; none keeps state between messages.
 */

const CRLF = '\r\n';
/** RFC 5322 2.1.1: a line SHOULD be at most 78 characters; RFC 2045 6.7 (5) caps QP lines at 76. */
const HEADER_LINE = 78;
const BODY_LINE = 76;
const HEX = '0123456789ABCDEF';

/** Every line break (CRLF, lone CR or LF) becomes CRLF: the only line break a message may carry. */
export function crlfLines(text: string): string {
  return text.replace(/\r\n|\r|\n/g, CRLF);
}

/**
 * RFC 2045 6.7 over text with CRLF line breaks: printable ASCII but `=` as is, other bytes `=XX`,
 * a space or tab before a line break (or at the end) encoded, soft breaks so no line exceeds 76.
 */
export function quotedPrintable(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  // At worst every byte becomes `=XX`, plus a soft break (3 bytes) every 25 of them.
  const out = Buffer.allocUnsafe(bytes.length * 4 + 3);
  let length = 0;
  let line = 0;
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index]!;
    if (byte === 0x0d && bytes[index + 1] === 0x0a) {
      out[length++] = 0x0d;
      out[length++] = 0x0a;
      line = 0;
      index++;
      continue;
    }
    const next = bytes[index + 1];
    const endsLine = next === undefined || (next === 0x0d && bytes[index + 2] === 0x0a);
    const literal =
      (byte >= 0x21 && byte <= 0x7e && byte !== 0x3d) ||
      ((byte === 0x20 || byte === 0x09) && !endsLine);
    const size = literal ? 1 : 3;
    // The last token of a line may use column 76; any other leaves room for the soft break's `=`.
    if (line + size > (endsLine ? BODY_LINE : BODY_LINE - 1)) {
      out[length++] = 0x3d;
      out[length++] = 0x0d;
      out[length++] = 0x0a;
      line = 0;
    }
    if (literal) out[length++] = byte;
    else {
      out[length++] = 0x3d;
      out[length++] = HEX.charCodeAt(byte >> 4);
      out[length++] = HEX.charCodeAt(byte & 0x0f);
    }
    line += size;
  }
  return out.toString('latin1', 0, length);
}

/** RFC 2045 6.8: base64 in lines of 76 characters. */
export function base64Lines(text: string): string {
  const encoded = Buffer.from(text, 'utf8').toString('base64');
  let out = '';
  for (let start = 0; start < encoded.length; start += BODY_LINE) {
    out += (start ? CRLF : '') + encoded.slice(start, start + BODY_LINE);
  }
  return out;
}

/**
 * Which encoding keeps mostly-Latin text readable and compact: quoted-printable unless characters
 * outside ASCII outnumber its letters (Greek, Cyrillic, emoji…), then base64.
 */
export function prefersQuotedPrintable(text: string): boolean {
  let latin = 0;
  let other = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin++;
    else if (code >= 0x80 || (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d)) {
      other++;
    }
  }
  return other <= latin;
}

/** Encoded-words of at most 52 characters, as nodemailer writes them: two fit in a folded line. */
const WORD_LENGTH = 52;
const Q_PREFIX = '=?UTF-8?Q?';
const B_PREFIX = '=?UTF-8?B?';
const WORD_SUFFIX = '?=';
/** RFC 2047 5 (3): the characters a Q-encoded word may carry as is, even inside a phrase. */
const Q_LITERAL = /^[A-Za-z0-9!*+\-/]$/;

/**
 * RFC 2047: the whole value as UTF-8 encoded-words separated by spaces (a decoder drops the space
 * between two words). A word never splits a character (6.3), so each decodes alone.
 */
export function encodedWords(value: string): string {
  return prefersQuotedPrintable(value) ? qWords(value) : bWords(value);
}

function qWords(value: string): string {
  const room = WORD_LENGTH - Q_PREFIX.length - WORD_SUFFIX.length;
  const words: string[] = [];
  let word = '';
  for (const char of value) {
    let token: string;
    if (char === ' ') token = '_';
    else if (Q_LITERAL.test(char)) token = char;
    else {
      token = '';
      for (const byte of Buffer.from(char, 'utf8'))
        token += `=${HEX[byte >> 4]}${HEX[byte & 0x0f]}`;
    }
    if (word && word.length + token.length > room) {
      words.push(word);
      word = '';
    }
    word += token;
  }
  words.push(word);
  return words.map((text) => `${Q_PREFIX}${text}${WORD_SUFFIX}`).join(' ');
}

function bWords(value: string): string {
  // 4 base64 characters carry 3 bytes: the most bytes whose encoding fits in the word.
  const room = Math.floor((WORD_LENGTH - B_PREFIX.length - WORD_SUFFIX.length) / 4) * 3;
  const words: string[] = [];
  let chunk = '';
  let bytes = 0;
  for (const char of value) {
    const size = Buffer.byteLength(char, 'utf8');
    if (chunk && bytes + size > room) {
      words.push(chunk);
      chunk = '';
      bytes = 0;
    }
    chunk += char;
    bytes += size;
  }
  words.push(chunk);
  return words
    .map((text) => `${B_PREFIX}${Buffer.from(text, 'utf8').toString('base64')}${WORD_SUFFIX}`)
    .join(' ');
}

/**
 * `Name: value` folded so lines stay within 78 characters where the value allows it (RFC 5322
 * 2.2.3: unfolding removes only the CRLF, so the value reads the same). The value is cut into a
 * first word and then runs of spaces each with the word after it; a fold goes before a run, so a
 * run of several spaces moves whole to the next line with its word and no line is white space
 * only. Folding only before single spaces let a run of spaces carry a line past 78 characters.
 */
export function headerLine(name: string, value: string): string {
  const first = /^[^ ]*/.exec(value)![0];
  let out = `${name}: ${first}`;
  let line = out.length;
  for (const run of value.slice(first.length).match(/ +[^ ]*/g) ?? []) {
    // A run of trailing spaces has no word to carry onto a line of its own.
    if (line + run.length > HEADER_LINE && !run.endsWith(' ')) {
      out += CRLF;
      line = 0;
    }
    out += run;
    line += run.length;
  }
  return `${out}${CRLF}`;
}
