import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { apiErrors } from '../../schemas/error-catalog.ts';
import { isBrowserFormPost } from '../body-parsers.ts';
import { clientKey } from './client-address.ts';
import type { EveryAnswerHeaders, FastAnswer } from '../site/fast-path.ts';
import { REQUEST_ID_HEADER, requestIdFor } from '../../observability/logging.ts';

/** A client refused on one route, until its window resets. */
interface Refusal {
  resetAt: number;
  route: string;
  /** The refusal log of the route's scope, which counts this refusal too. */
  countRefusal: (client: string) => void;
}

export interface RefusedClients {
  /**
   * The rate limit refused `client` on `route` with `ttlMs` left in its window: until then each of
   * its POSTs there is refused again, since a window never resets early (fixed windows).
   */
  record(
    route: string,
    client: string,
    ttlMs: number,
    countRefusal: (client: string) => void,
  ): void;
  /** Answers the 429 of a recorded refusal before Fastify (src/kernel/http/site/fast-path.ts). */
  answer: FastAnswer;
}

export interface RefusedClientsSettings {
  /** RATE_LIMIT_PER_MINUTE, the X-RateLimit-Limit of each refusal. */
  perMinute: number;
  /** Fastify's trustProxy, so the client is the one `request.ip` names. */
  trustProxy: false | readonly string[];
  everyAnswer: EveryAnswerHeaders;
  /** Counts each answer as the request counter of docs/operations.md does for Fastify's. */
  onAnswered: (route: string) => void;
  /** The clock of the windows, in milliseconds; a test moves it instead of waiting a window out. */
  now?: () => number;
}

/**
 * A flood past the limit is answered from here: the same 429 as the one the limiter's route gives
 * (its headers, the ErrorResponse of spec 2.5 with its Retry-After) from a table per number of
 * seconds left, without Fastify's request, hooks and thrown error (docs/performance.md, "The 429
 * flood"). Only what Fastify would answer in JSON: a browser's form post gets its form page there.
 */
export function createRefusedClients(settings: RefusedClientsSettings): RefusedClients {
  /**
   * By `${route} ${client}`, in the order refused. Each record drops the expired ones at the front;
   * one behind a live refusal waits for it, at most one window (a minute): the map holds the
   * clients refused in the last two windows, never more.
   */
  const refusals = new Map<string, Refusal>();
  const answers = refusalAnswers(settings.perMinute, settings.everyAnswer);
  const addressOf = clientAddress(settings.trustProxy);
  const clock = settings.now ?? Date.now;
  const dropExpired = (now: number) => {
    for (const [key, refusal] of refusals) {
      if (refusal.resetAt > now) return;
      refusals.delete(key);
    }
  };
  return {
    record(route, client, ttlMs, countRefusal) {
      const now = clock();
      dropExpired(now);
      const key = `${route} ${client}`;
      refusals.delete(key);
      refusals.set(key, { resetAt: now + ttlMs, route, countRefusal });
    },
    answer(request, response) {
      if (refusals.size === 0 || request.method !== 'POST') return false;
      const url = request.url ?? '';
      const query = url.indexOf('?');
      const client = clientKey(addressOf(request));
      const key = `${query === -1 ? url : url.slice(0, query)} ${client}`;
      const refusal = refusals.get(key);
      if (!refusal) return false;
      const seconds = Math.ceil((refusal.resetAt - clock()) / 1000);
      if (seconds <= 0) {
        refusals.delete(key);
        return false;
      }
      if (isBrowserFormPost(request)) return false;
      const { flatHeaders, body } = answers(seconds);
      response.writeHead(429, [REQUEST_ID_HEADER, requestIdFor(request)].concat(flatHeaders));
      response.end(body);
      refusal.countRefusal(client);
      settings.onAnswered(refusal.route);
      return true;
    },
  };
}

/** What `request.ip` is in Fastify with this trustProxy (fastify/lib/request.js). */
function clientAddress(
  trustProxy: false | readonly string[],
): (request: IncomingMessage) => string {
  if (!trustProxy) return (request) => request.socket.remoteAddress ?? '';
  const trusted = proxyAddr.compile([...trustProxy]);
  return (request) => proxyAddr(request, trusted);
}

/**
 * The headers (every answer's included, the request id aside) and body of a refusal with `seconds`
 * left, made once per number of seconds.
 */
function refusalAnswers(perMinute: number, everyAnswer: EveryAnswerHeaders) {
  const made = new Map<number, { flatHeaders: string[]; body: Buffer }>();
  return (seconds: number) => {
    let answer = made.get(seconds);
    if (answer) return answer;
    const error = apiErrors.rateLimited(seconds);
    const body = Buffer.from(JSON.stringify(error.toResponse()));
    const flatHeaders = [
      ...everyAnswer,
      'x-ratelimit-limit',
      String(perMinute),
      'x-ratelimit-remaining',
      '0',
      'x-ratelimit-reset',
      String(seconds),
      ...Object.entries(error.headers).flat(),
      'content-type',
      'application/json; charset=utf-8',
      'content-length',
      String(body.length),
    ];
    answer = { flatHeaders, body };
    made.set(seconds, answer);
    return answer;
  };
}
