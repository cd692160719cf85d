/*
 * Issue 4: logs never hold an API key, a full e-mail address or a full phone number. Leads are
 * personal data (GDPR): the journal is the one place that keeps them whole; a log line keeps just
 * enough to tell two people apart ("m***@example.fr", "******78").
 */

const EMAIL = /([\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]*@([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/gu;
// Eight digits or more, optionally after "+" and split by spaces, dots or dashes; not inside a word or UUID.
const PHONE = /(?<![\p{L}\p{N}_-])\+?\d(?:[ .-]?\d){7,16}(?![\p{L}\p{N}_-])/gu;
// Brevo keys ("xkeysib-…", "xsmtpsib-…") and anything written as "api-key: …" or "apiKey=…".
const API_KEY =
  /\b(?:xkeysib|xsmtpsib)-[A-Za-z0-9-]+|\b(api[-_]?key["']?\s*[:=]\s*["']?)[^\s"',;]+/gi;

export function maskText(text: string): string {
  return text
    .replace(API_KEY, (_match, label?: string) => `${label ?? ''}[masqué]`)
    .replace(EMAIL, '$1***@$2')
    .replace(PHONE, (match) => `******${match.slice(-2)}`);
}

/** Masks every string inside a logged value; Errors become plain objects so nothing escapes. */
export function maskValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskText(value);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  if (value instanceof Error) return maskValue(serializeError(value), depth);
  if (Array.isArray(value)) return value.map((item) => maskValue(item, depth + 1));
  const masked: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    setOwn(masked, key, maskValue(item, depth + 1));
  }
  return masked;
}

/** Plain assignment of a "__proto__" key would replace the prototype instead of keeping the data. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** pino's usual error shape (type, message, stack, code), with the cause chain that carries provider answers. */
export function serializeError(error: Error): Record<string, unknown> {
  const result: Record<string, unknown> = {
    type: error.name,
    message: error.message,
    stack: error.stack,
  };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) result.code = code;
  if (error.cause instanceof Error) result.cause = serializeError(error.cause);
  else if (error.cause !== undefined) result.cause = String(error.cause);
  return result;
}
