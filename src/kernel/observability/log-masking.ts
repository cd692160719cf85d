import { maskText } from '../lead/masking.ts';
import {
  INVITATION_PARAMETER,
  SEARCH_PARAMETER,
  WORKSPACE_PATH,
} from '../schemas/workspace-paths.ts';

const INVITATION_TOKEN = new RegExp(`([?&]${INVITATION_PARAMETER}=)[^&#]*`, 'g');
const WORKSPACE_SEARCH = new RegExp(`([?&]${SEARCH_PARAMETER}=)[^&#]*`, 'g');

/** The longest part of a request URL that is logged: enough for any real path and query. */
export const LOGGED_URL_MAX = 512;

/** How many times a URL is percent-decoded at most: `%2540` hides an `@` behind two rounds. */
const DECODING_ROUNDS = 3;

/**
 * A request URL as logged: cut to LOGGED_URL_MAX characters (a 64 KB URL costs no more to log than a
 * short one), "+" read as a space and percent-escapes decoded until nothing changes (at most three
 * rounds), so that `?email=marie%40example.fr`, `?e=marie%2540example.fr` or `?tel=06+12+34+56+78`
 * are masked like the plain text they stand for, then masked.
 */
export function maskUrl(url: string, secrets: readonly string[]): string {
  const cut =
    url.length > LOGGED_URL_MAX
      ? `${url.slice(0, LOGGED_URL_MAX)}…[${url.length - LOGGED_URL_MAX} caractères coupés]`
      : url;
  // docs/workspace-security.md, "Every page": what the team searches for is a person's name or
  // words: personal data, masked before decoding (a `%26` in it stays inside the value) and again
  // after.
  const workspace = cut.startsWith(WORKSPACE_PATH);
  let decoded = (workspace ? cut.replace(WORKSPACE_SEARCH, '$1[masqué]') : cut).replace(/\+/g, ' ');
  for (let round = 0; round < DECODING_ROUNDS && decoded.includes('%'); round++) {
    const next = percentDecoded(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  // docs/workspace-security.md, "Every page": an invitation link's token opens an account; it never
  // reaches a log.
  const searched = workspace ? decoded.replace(WORKSPACE_SEARCH, '$1[masqué]') : decoded;
  return maskText(searched.replace(INVITATION_TOKEN, '$1[masqué]'), secrets);
}

function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (escapes) => {
    try {
      return decodeURIComponent(escapes);
    } catch {
      return escapes;
    }
  });
}

/** Fields whose value is a credential whatever it looks like, at any depth, in any case. */
const CREDENTIAL_KEYS = new Set(['authorization', 'api-key', 'apikey', 'cookie', 'password']);
const CENSORED = '[masqué]';

/** Masks every string inside a logged value; Errors become plain objects so nothing escapes. */
export function maskValue(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === 'string') return maskText(value, secrets);
  if (value === null || typeof value !== 'object' || depth > 6) return value;
  // A date (`nextAttemptAt`, a backlog's `oldestReceivedAt`) has no own fields: walked, it would be
  // written `{}`. It holds no personal data.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Error) return maskValue(serializeError(value), secrets, depth);
  if (Array.isArray(value)) return value.map((item) => maskValue(item, secrets, depth + 1));
  const masked: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    setOwn(masked, key, maskField(key, item, secrets, depth + 1));
  }
  return masked;
}

/** A logged field: censored when its name says it holds a credential, else masked (maskValue). */
export function maskField(
  key: string,
  value: unknown,
  secrets: readonly string[],
  depth = 0,
): unknown {
  return CREDENTIAL_KEYS.has(key.toLowerCase()) ? CENSORED : maskValue(value, secrets, depth);
}

/**
 * Plain assignment of a "__proto__" key would replace the prototype instead of keeping the data; any
 * other key is assigned (defining each property cost more than masking it).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key !== '__proto__') {
    target[key] = value;
    return;
  }
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
