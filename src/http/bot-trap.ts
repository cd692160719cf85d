import { createHmac, timingSafeEqual } from 'node:crypto';
import { FORM_TOKEN_PLACEHOLDER } from '../schemas/bot-trap.ts';
import { trapFieldsOf } from './form-body.ts';

/**
 * The bot trap of the site's forms (docs/api-decisions.md, "Bot trap"): a honeypot field, and a
 * minimum fill time read from a token holding the second the page was served and an HMAC of it,
 * under a key kept in the journal database and shared by every node, so a bot cannot write an
 * older time than the page it fetched.
 */
export interface BotTrap {
  /** The token of a page served at `nowMs`, the same for the whole second. */
  issue(nowMs: number): string;
  /** Whether a request's body is a form post the trap caught; a JSON body never is. */
  caught(body: unknown, nowMs: number): boolean;
}

/** The shape of an issued token: the second, a dot, 22 base64url characters of HMAC-SHA256. */
export const TOKEN_SHAPE = /^(\d{1,12})\.([A-Za-z0-9_-]{22})$/;

export function createBotTrap(key: string, minFillMs: number): BotTrap {
  const mac = (second: string) =>
    createHmac('sha256', key).update(`form-time ${second}`).digest('base64url').slice(0, 22);
  /**
   * No token (a page built or cached before the trap, a script posting the form itself): no time
   * check, a person's lead is not lost over it. A token this service did not issue: caught. A
   * token of any age above the minimum is a person's, however long the page stayed open.
   */
  const tooFastOrForged = (token: string | undefined, nowMs: number) => {
    if (token === undefined || token === FORM_TOKEN_PLACEHOLDER) return false;
    const [, second, signature] = TOKEN_SHAPE.exec(token) ?? [];
    if (second === undefined || signature === undefined) return true;
    if (!timingSafeEqual(Buffer.from(signature), Buffer.from(mac(second)))) return true;
    return nowMs - Number(second) * 1000 < minFillMs;
  };
  return {
    issue(nowMs) {
      const second = String(Math.floor(nowMs / 1000));
      return `${second}.${mac(second)}`;
    },
    caught(body, nowMs) {
      const trap = trapFieldsOf(body);
      if (trap === undefined) return false;
      return Boolean(trap.honeypot) || tooFastOrForged(trap.token, nowMs);
    },
  };
}
