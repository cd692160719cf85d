import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SpamReason } from '../../../kernel/lead/spam-reason.ts';
import { FORM_TOKEN_PLACEHOLDER } from '../../../kernel/schemas/bot-trap.ts';
import { trapFieldsOf } from '../../../kernel/http/form-body.ts';

/**
 * The bot trap of the site's forms (docs/api-decisions.md, "Bot trap"): a honeypot field, and a
 * token holding the second the page was served and an HMAC of it, under a key kept in the journal
 * database and shared by every node, so a bot cannot write an older time than the page it fetched.
 * The token gives a minimum fill time, a maximum age, and a number of posts it is good for.
 */
export interface BotTrap {
  /** The token of a page served at `nowMs` (by default now), the same for the whole second. */
  issue(nowMs?: number): string;
  /**
   * Why a request's body is a form post the trap caught (journaled as `spam` with that reason, to
   * be reviewed and released, never dropped), or undefined; a JSON body never is.
   */
  verdict(body: unknown, nowMs?: number): SpamReason | undefined;
}

export interface BotTrapSettings {
  /** FORM_MIN_FILL_SECONDS: sooner is `too_fast`; 0 = no time check. */
  minFillMs: number;
  /** FORM_TOKEN_MAX_AGE_HOURS: later is `token_expired`. */
  maxAgeMs?: number;
  /** FORM_TOKEN_MAX_POSTS: the posts one token is good for; the next are `token_replayed`. */
  maxPosts?: number;
  /** The service's clock, in milliseconds (a test drives it past the minimum fill time). */
  now?: () => number;
}

/** The shape of an issued token: the second, a dot, 22 base64url characters of HMAC-SHA256. */
export const TOKEN_SHAPE = /^(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

/** Tokens whose posts are counted at once, at most: a flood of fresh tokens evicts the oldest. */
const COUNTED_TOKENS_MAX = 50_000;

export function createBotTrap(
  key: string,
  { minFillMs, maxAgeMs = 12 * 3_600_000, maxPosts = 3, now = Date.now }: BotTrapSettings,
): BotTrap {
  const mac = (second: string) =>
    createHmac('sha256', key).update(`form-time ${second}`).digest('base64url').slice(0, 22);
  /*
   * Posts per token, in this process (docs/api-decisions.md: nodes behind one balancer each count
   * their own, so N nodes accept up to N × maxPosts). Kept until the token expires.
   */
  const posts = new Map<string, { count: number; expiresAt: number }>();
  const counted = (token: string, servedMs: number, nowMs: number): number => {
    const entry = posts.get(token) ?? { count: 0, expiresAt: servedMs + maxAgeMs };
    entry.count++;
    posts.delete(token);
    posts.set(token, entry);
    for (const [oldest, { expiresAt }] of posts) {
      if (posts.size <= COUNTED_TOKENS_MAX && expiresAt > nowMs) break;
      posts.delete(oldest);
    }
    return entry.count;
  };
  /**
   * No token (a page built or cached before the trap, a script posting the form itself): no time
   * check, a person's lead is not lost over it. A token this service did not issue: forged.
   */
  const tokenVerdict = (token: string | undefined, nowMs: number): SpamReason | undefined => {
    if (token === undefined || token === FORM_TOKEN_PLACEHOLDER) return undefined;
    const [, second, signature] = TOKEN_SHAPE.exec(token) ?? [];
    if (second === undefined || signature === undefined) return 'token_forged';
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(mac(second)))) return 'token_forged';
    const servedMs = Number(second) * 1000;
    if (nowMs - servedMs > maxAgeMs) return 'token_expired';
    if (counted(token, servedMs, nowMs) > maxPosts) return 'token_replayed';
    return nowMs - servedMs < minFillMs ? 'too_fast' : undefined;
  };
  return {
    issue(nowMs = now()) {
      const second = String(Math.floor(nowMs / 1000));
      return `${second}.${mac(second)}`;
    },
    verdict(body, nowMs = now()) {
      const trap = trapFieldsOf(body);
      if (trap === undefined) return undefined;
      if (trap.honeypot) return 'honeypot';
      return tokenVerdict(trap.token, nowMs);
    },
  };
}
