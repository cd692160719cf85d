/*
 * Logs, the journal's provider texts and exports never hold an API key, a configured secret, a full
 * e-mail address or a full phone number. Leads are personal data (GDPR): the lead's own fields are
 * the one place that keeps them whole; anything else keeps just enough to tell two people apart
 * ("m***@example.fr", "******78").
 *
 * Every pattern is linear on any input (docs/reliability.md, "Hostile input"): a match may only
 * start where its run of characters starts (the look-behinds), so a long run that is not an address
 * is scanned once instead of once per character.
 */
// Eight digits or more, optionally after "+" and split by spaces, dots or dashes; not inside a word or UUID.
const PHONE = /(?<![\p{L}\p{N}_-])\+?\d(?:[ .-]?\d){7,16}(?![\p{L}\p{N}_-])/gu;
// Brevo keys ("xkeysib-…", "xsmtpsib-…") and anything written as "api-key: …" or "apiKey=…".
const API_KEY =
  /\b(?:xkeysib|xsmtpsib)-[A-Za-z0-9-]+|\b(api[-_]?key["']?\s*[:=]\s*["']?)[^\s"',;]+/gi;
/** What every API_KEY match holds: a text without it is not searched. */
const MAY_HOLD_KEY = /api|sib-/i;
const MASK = '[masqué]';

/** Shorter values are not masked literally: they would cut every word that contains them. */
const SECRET_MIN_LENGTH = 6;

export function maskText(text: string, secrets: readonly string[] = []): string {
  let masked = text;
  // Configured secrets are masked literally, whatever their shape (an SMTP password, a key Brevo echoes).
  for (const secret of secrets) {
    if (secret.length >= SECRET_MIN_LENGTH) masked = masked.split(secret).join(MASK);
  }
  // Each pattern is tried only on a text holding what it cannot match without ("api" or "sib-", an
  // "@", eight digits): most of a log line's strings (ids, names, messages) hold none, and the
  // Unicode patterns were half of writing a line (docs/performance.md).
  if (MAY_HOLD_KEY.test(masked)) {
    masked = masked.replace(API_KEY, (_match, label?: string) => `${label ?? ''}${MASK}`);
  }
  if (masked.includes('@')) masked = maskAddresses(masked);
  if (holdsDigits(masked, 8)) masked = masked.replace(PHONE, (match) => `******${match.slice(-2)}`);
  return masked;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A letter or digit of any script; a surrogate half counts, so a character beyond the BMP does. */
function isWordChar(code: number): boolean {
  if (code < 128) {
    return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
  }
  return (code >= 0xd800 && code <= 0xdfff) || LETTER_OR_DIGIT.test(String.fromCharCode(code));
}

/** What the part before "@" is made of: letters, digits, `. _ % + -`. */
function isLocalChar(code: number): boolean {
  return (
    isWordChar(code) || code === 46 || code === 95 || code === 37 || code === 43 || code === 45
  );
}

/** What a domain label is made of: letters, digits, `-`. */
function isLabelChar(code: number): boolean {
  return isWordChar(code) || code === 45;
}

/**
 * Every address becomes its first character, `***@` and its domain ("marie@example.fr" →
 * "m***@example.fr"), dotless domains included (`leak@localhost`, an intranet host). A scan from
 * "@" to "@", each character read at most twice: linear on any input, and fast where a pattern was
 * not (64 KB of "a@a@…" is 16,000 addresses).
 */
function maskAddresses(text: string): string {
  let out = '';
  let kept = 0;
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > kept && isLocalChar(text.charCodeAt(start - 1))) start--;
    let end = at + 1;
    while (end < text.length && isLabelChar(text.charCodeAt(end))) end++;
    if (start === at || end === at + 1) continue;
    while (text.charCodeAt(end) === 46 && isLabelChar(text.charCodeAt(end + 1))) {
      end += 2;
      while (end < text.length && isLabelChar(text.charCodeAt(end))) end++;
    }
    const first = String.fromCodePoint(text.codePointAt(start)!);
    out += `${text.slice(kept, start)}${first}***@${text.slice(at + 1, end)}`;
    kept = end;
    at = end - 1;
  }
  return kept === 0 ? text : out + text.slice(kept);
}

/** A phone number has eight digits at least: counted, stopping at the eighth. */
function holdsDigits(text: string, count: number): boolean {
  let found = 0;
  for (let index = 0; index < text.length && found < count; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) found++;
  }
  return found >= count;
}
