/**
 * A minimal client for Brevo's API v3: one JSON POST with the `api-key` header, a timeout and the
 * caller's AbortSignal. It knows HTTP and Brevo's error shape `{code, message}`, nothing about leads.
 */

/** What Brevo answered (or failed to answer) to one call; the message never contains the API key. */
export class BrevoError extends Error {
  override readonly name = 'BrevoError';

  constructor(
    message: string,
    /** Brevo's HTTP status; absent when no answer came. */
    readonly status?: number,
    /** Brevo's error `code` (duplicate_parameter, unauthorized…) when the body carried one. */
    readonly code?: string,
    /** Brevo's `metadata`, e.g. `{duplicate_identifiers: ['email']}` on newer accounts. */
    readonly metadata?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface BrevoAnswer {
  status: number;
  /** The parsed JSON body, or undefined for an empty body (204). */
  body: unknown;
}

export interface BrevoClientOptions {
  apiKey: string;
  /** Base URL without trailing slash, e.g. https://api.brevo.com/v3 (Prism serves at the root). */
  apiUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export type BrevoClient = (
  path: string,
  payload: unknown,
  signal: AbortSignal,
) => Promise<BrevoAnswer>;

const SNIPPET_LENGTH = 300;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

export function createBrevoClient({
  apiKey,
  apiUrl,
  timeoutMs,
  fetch: fetchImpl = fetch,
}: BrevoClientOptions): BrevoClient {
  return async function post(path, payload, signal) {
    const call = `POST ${path}`;
    let response: Response;
    let text: string;
    try {
      // Our own deadline as well as the caller's: whichever comes first aborts the socket.
      const deadline = AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]);
      response = await fetchImpl(`${apiUrl}${path}`, {
        method: 'POST',
        headers: {
          'api-key': apiKey,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(payload),
        signal: deadline,
      });
      text = await response.text();
    } catch (error) {
      throw new BrevoError(
        `${call}: no answer (${reasonOf(error, timeoutMs)})`,
        undefined,
        undefined,
        undefined,
        {
          cause: error,
        },
      );
    }
    const body = parseBody(text);
    if (response.ok) {
      if (body === GARBAGE) {
        throw new BrevoError(
          `${call} answered ${response.status} with a body that is not JSON: ${snippet(text)}`,
          response.status,
        );
      }
      return { status: response.status, body };
    }
    const { code, message, metadata } = errorFields(body);
    const said =
      code || message
        ? `${code ?? 'no code'}: ${message ?? ''}`.trim()
        : snippet(text) || 'an empty body';
    throw new BrevoError(
      `${call} answered ${response.status} ${said}`,
      response.status,
      code,
      metadata,
    );
  };
}

const GARBAGE = Symbol('garbage');

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return GARBAGE;
  }
}

function errorFields(body: unknown): {
  code?: string;
  message?: string;
  metadata?: Record<string, unknown>;
} {
  if (!body || typeof body !== 'object') return {};
  const record = body as Record<string, unknown>;
  return {
    code: typeof record.code === 'string' ? record.code : undefined,
    message: typeof record.message === 'string' ? snippet(record.message) : undefined,
    metadata:
      record.metadata && typeof record.metadata === 'object'
        ? (record.metadata as Record<string, unknown>)
        : undefined,
  };
}

/** Brevo's answer goes into logs and the journal: one line, bounded, no control characters. */
function snippet(text: string): string {
  return text.replace(CONTROL_CHARACTERS, ' ').trim().slice(0, SNIPPET_LENGTH);
}

function reasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return `nothing within ${timeoutMs} ms`;
    if (error.name === 'AbortError') return 'aborted by the caller';
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
