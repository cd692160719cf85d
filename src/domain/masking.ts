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
const LOCAL_CHAR = String.raw`[\p{L}\p{N}._%+-]`;
const EMAIL = new RegExp(
  String.raw`(?<!${LOCAL_CHAR})(${LOCAL_CHAR})${LOCAL_CHAR}*@([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)`,
  'gu',
);
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
  if (masked.includes('@')) masked = masked.replace(EMAIL, '$1***@$2');
  if (holdsDigits(masked, 8)) masked = masked.replace(PHONE, (match) => `******${match.slice(-2)}`);
  return masked;
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
