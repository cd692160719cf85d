import { createHmac, timingSafeEqual } from 'node:crypto';
import { FORM_TOKEN_PLACEHOLDER } from '../schemas/bot-trap.ts';

/**
 * The minimum fill time of the site's forms (docs/api-decisions.md, "Bot trap"): the token is the
 * second the page was served and an HMAC of it, under a key kept in the journal database and shared
 * by every node, so a bot cannot write an older time than the page it fetched.
 */
export interface FormTokens {
  /** The token for the second `nowMs` falls in. */
  issue(nowMs: number): string;
  /** What a form post's token says about its sender. */
  judge(token: string | undefined, nowMs: number): TokenVerdict;
}

/**
 * `unknown`: no token (a page built before the trap, a page served by another server, a script
 * posting the form itself): no time check. `forged`: not what this service issued. `too-fast`:
 * sent sooner than the minimum fill time. A token of any age above it is a person's.
 */
export type TokenVerdict = 'unknown' | 'forged' | 'too-fast' | 'in-time';

const TOKEN = /^(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

export function createFormTokens(key: string, minFillMs: number): FormTokens {
  const mac = (second: string) =>
    createHmac('sha256', key).update(`form-time ${second}`).digest('base64url').slice(0, 22);
  return {
    issue(nowMs) {
      const second = String(Math.floor(nowMs / 1000));
      return `${second}.${mac(second)}`;
    },
    judge(token, nowMs) {
      if (token === undefined || token === FORM_TOKEN_PLACEHOLDER) return 'unknown';
      const [, second, signature] = TOKEN.exec(token) ?? [];
      if (second === undefined || signature === undefined) return 'forged';
      const expected = Buffer.from(mac(second));
      if (!timingSafeEqual(Buffer.from(signature), expected)) return 'forged';
      return nowMs - Number(second) * 1000 < minFillMs ? 'too-fast' : 'in-time';
    },
  };
}
