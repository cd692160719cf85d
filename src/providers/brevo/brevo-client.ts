import { setTimeout as sleep } from 'node:timers/promises';
import type { CallBudget } from './call-budget.ts';

/**
 * A minimal client for Brevo's API v3: one JSON POST with the `api-key` header, a deadline shared
 * with the caller's AbortSignal, and one retry where Brevo's own SDK retries. It knows HTTP and
 * Brevo's error shape `{code, message}`, nothing about leads.
 */

/** What Brevo answered (or failed to answer) to one call; the message never contains the API key. */
export class BrevoError extends Error {
  override readonly name = 'BrevoError';
  /** Brevo's HTTP status; absent when no answer came. */
  readonly status?: number;
  /** Brevo's error `code` (duplicate_parameter, unauthorized…) when the body carried one. */
  readonly code?: string;
  /** Brevo's `metadata`, e.g. `{duplicate_identifiers: ['email']}` on newer accounts. */
  readonly metadata?: Record<string, unknown>;
  /** Brevo's own `message` (« Attribute SERVICE not found »), one bounded line. */
  readonly reason?: string;

  constructor(
    message: string,
    details: {
      status?: number;
      code?: string;
      metadata?: Record<string, unknown>;
      reason?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: details.cause });
    this.status = details.status;
    this.code = details.code;
    this.metadata = details.metadata;
    this.reason = details.reason;
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
  /**
   * PROVIDER_TIMEOUT_MS: the whole call, retry included, ends by then once its budget slot came;
   * the wait for that slot is bounded by as much again.
   */
  timeoutMs: number;
  /** Pause before the retry. */
  retryDelayMs?: number;
  /** The account's call budget, shared by every node (docs/delivery.md). */
  budget?: CallBudget;
  fetch?: typeof fetch;
}

export type BrevoClient = (
  path: string,
  payload: unknown,
  signal: AbortSignal,
  /**
   * POST unless said otherwise; a DELETE (erasure, docs/consent.md) and a GET (`leadgate config
   * check`, docs/brevo.md) send no body.
   */
  method?: Method,
) => Promise<BrevoAnswer>;

type Method = 'POST' | 'DELETE' | 'GET';

const SNIPPET_LENGTH = 300;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]+/g;

export function createBrevoClient({
  apiKey,
  apiUrl,
  timeoutMs,
  retryDelayMs = 200,
  budget,
  fetch: fetchImpl = fetch,
}: BrevoClientOptions): BrevoClient {
  async function attempt(method: Method, path: string, payload: unknown, deadline: AbortSignal) {
    const call = `${method} ${path}`;
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(`${apiUrl}${path}`, {
        method,
        headers: {
          'api-key': apiKey,
          ...(method === 'POST' && { 'content-type': 'application/json' }),
          accept: 'application/json',
        },
        body: method === 'POST' ? JSON.stringify(payload) : undefined,
        signal: deadline,
      });
      text = await response.text();
    } catch (error) {
      throw new BrevoError(`${call}: no answer (${reasonOf(error, timeoutMs)})`, { cause: error });
    }
    const reset = response.status === 429 ? resetSeconds(response.headers) : undefined;
    if (reset !== undefined) await budget?.rateLimited(path, reset);
    const body = parseBody(text);
    if (response.ok && body !== GARBAGE) return { status: response.status, body };
    if (response.ok) {
      throw new BrevoError(
        `${call} answered ${response.status} with a body that is not JSON: ${snippet(text)}`,
        { status: response.status },
      );
    }
    const { code, message, metadata } = errorFields(body);
    const said =
      code || message
        ? `${code ?? 'no code'}: ${message ?? ''}`.trim()
        : `with ${snippet(text) ? `a body that is not Brevo's error shape: ${snippet(text)}` : 'an empty body'}`;
    throw new BrevoError(`${call} answered ${response.status} ${said}`, {
      status: response.status,
      code,
      metadata,
      reason: message,
    });
  }

  return async function post(path, payload, signal, method = 'POST') {
    // docs/delivery.md, « Provider rate budgets »: the wait for a budget slot is not Brevo's time.
    // It has its own bound (a slot further away puts the step back in line, no attempt counted),
    // and the call's deadline starts at the slot.
    await budget?.take(path, timeoutMs, signal);
    // One deadline for the call, retry included; the caller's signal (the intake's) also ends it.
    // Ours falls a little before the intake's, so the journal names the call that went silent.
    const ownDeadline = timeoutMs - Math.min(100, Math.floor(timeoutMs / 10));
    const deadline = AbortSignal.any([signal, AbortSignal.timeout(ownDeadline)]);
    const until = Date.now() + ownDeadline;
    try {
      return await attempt(method, path, payload, deadline);
    } catch (error) {
      if (!isTransient(error) || deadline.aborted) throw error;
      // Brevo's SDK retries 408, 429 and 5xx. Our calls are safe to repeat: the contact call is an
      // upsert, every e-mail carries an idempotency key, a DELETE deletes once. One retry, within
      // the same deadline.
      try {
        await sleep(retryDelayMs, undefined, { signal: deadline });
      } catch {
        throw error;
      }
      await budget?.take(path, until - Date.now(), deadline);
      return attempt(method, path, payload, deadline);
    }
  };
}

/** Brevo's 429 says when its window resets: `x-sib-ratelimit-reset`, in seconds. */
function resetSeconds(headers: Headers): number | undefined {
  const reset = Number(headers.get('x-sib-ratelimit-reset') ?? Number.NaN);
  return Number.isFinite(reset) && reset > 0 ? reset : undefined;
}

function isTransient(error: unknown): boolean {
  if (!(error instanceof BrevoError)) return false;
  if (error.status === undefined) return !(error.cause instanceof Error && isAbort(error.cause));
  return (
    error.status === 408 || error.status === 429 || (error.status >= 500 && error.status !== 501)
  );
}

function isAbort(error: Error): boolean {
  return (
    error.name === 'TimeoutError' || error.name === 'AbortError' || error.name === 'UpstreamError'
  );
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
    code: typeof record.code === 'string' ? snippet(record.code) : undefined,
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
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `nothing within the ${timeoutMs} ms allowed`;
  if (error.name === 'AbortError') return 'aborted by the caller';
  if (error.name === 'UpstreamError') return error.message;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
