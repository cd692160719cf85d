import { ConfigurationError, UnreachableError } from '../../kernel/lead/errors.ts';
import {
  isPublicAddress,
  literalAddressOf,
  PrivateDestinationError,
  publicOnlyLookup,
} from './webhook-address-guard.ts';
import type { WebhookMessage } from './webhook-message.ts';
import { signedHeaders } from './webhook-signature.ts';

export interface WebhookSenderSettings {
  /** The bytes of WEBHOOK_SECRET. */
  key: Uint8Array;
  timeoutMs: number;
  allowPrivate: boolean;
  now?: () => Date;
}

/** What the receiver answered, whatever the status: `leadgate webhooks test` prints it. */
export interface WebhookAnswer {
  status: number;
  /** The first bytes of the answer's body, enough for an operator to read an error. */
  body: string;
}

const ANSWER_EXCERPT_BYTES = 2048;

/**
 * Signs and POSTs webhook messages (Standard Webhooks). Redirects are never followed (a redirect is
 * an answer, and not a 2xx: a receiver must be configured at its final URL, and following one could
 * lead past the address guard); each attempt is bounded by `timeoutMs` and the caller's signal.
 */
export function createWebhookSender({
  key,
  timeoutMs,
  allowPrivate,
  now = () => new Date(),
}: WebhookSenderSettings) {
  // docs/performance.md (starts): undici is the largest package of the bundle; loaded only with
  // WEBHOOK_URLS (or `leadgate webhooks test`), from here. Through its `default` (module.exports):
  // the bundle gives a CommonJS package's dynamic import nothing else.
  const client = import('undici').then(({ default: { Agent, request } }) => ({
    request,
    agent: new Agent({
      connect: { timeout: timeoutMs, ...(!allowPrivate && { lookup: publicOnlyLookup }) },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    }),
  }));

  return {
    async send(url: URL, message: WebhookMessage, signal?: AbortSignal): Promise<WebhookAnswer> {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new ConfigurationError(`webhook destinations are http(s) only, not ${url.protocol}`);
      }
      // A literal address needs no lookup, so the socket's guard never sees it: checked here.
      const literal = literalAddressOf(url.hostname);
      if (literal && !allowPrivate && !isPublicAddress(literal)) {
        throw new ConfigurationError(new PrivateDestinationError(url.hostname, literal).message);
      }
      const deadline = AbortSignal.timeout(timeoutMs);
      const { agent, request } = await client;
      try {
        const answer = await request(url, {
          method: 'POST',
          dispatcher: agent,
          headers: {
            'content-type': 'application/json',
            'user-agent': 'leadgate-webhooks',
            ...signedHeaders(key, message, now()),
          },
          body: message.body,
          signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
        });
        return { status: answer.statusCode, body: await excerpt(answer.body) };
      } catch (error) {
        const refusal = causes(error).find((cause) => cause instanceof PrivateDestinationError);
        if (refusal) throw new ConfigurationError(refusal.message, { cause: error });
        const reason = deadline.aborted ? `no answer within ${timeoutMs} ms` : 'request failed';
        throw new UnreachableError(`webhook ${url.host}: ${reason}`, { cause: error });
      }
    },
    close: async () => (await client).agent.close(),
  };
}

export type WebhookSender = ReturnType<typeof createWebhookSender>;

async function excerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= ANSWER_EXCERPT_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, ANSWER_EXCERPT_BYTES).toString('utf8');
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 5;) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}
