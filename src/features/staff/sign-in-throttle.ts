import { clientKey } from '../../kernel/http/limits/client-address.ts';
import type { Store } from '../../kernel/journal/store.ts';
import type { ThrottleRule } from './staff.ts';
import { tokenHash } from './secrets.ts';

/**
 * docs/workspace-security.md, "Throttling" (OWASP authentication cheat sheet, ASVS 2.2): after a
 * few free failures, each new one doubles the wait before the next attempt, up to 15 minutes.
 * Counted per account and client together (one client guessing one account), per client (one client
 * trying many accounts) and per account whatever the client (slow guessing from many places: more
 * free failures, so that an attack from one client does not lock the member out). An account key is
 * the hash of the address typed, so an unknown address is throttled exactly as a known one.
 */
const FREE_FAILURES = { pair: 5, address: 20, account: 50 } as const;
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 15 * 60 * 1000;
/** Sign-ins of one key a node runs at once (each is one scrypt): the others are refused at once. */
const IN_FLIGHT = { pair: 1, address: 2, account: 4 } as const;

type KeyKind = keyof typeof FREE_FAILURES;
/** The order keys are claimed in: the attacker's own first, the account's (shared with its member) last. */
const KINDS: readonly KeyKind[] = ['pair', 'address', 'account'];

export type ThrottleKeys = Record<KeyKind, string>;

export function throttleKeys(email: string, ip: string): ThrottleKeys {
  const account = tokenHash(email);
  const client = clientKey(ip);
  return {
    pair: `pair:${tokenHash(`${account} ${client}`)}`,
    address: `address:${client}`,
    account: `account:${account}`,
  };
}

export function waitAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (failures - free), LONGEST_WAIT_MS);
}

const rules = Object.fromEntries(
  KINDS.map((kind) => [
    kind,
    {
      free: FREE_FAILURES[kind],
      waitAfter: (failures: number) => waitAfter(failures, FREE_FAILURES[kind]),
      longestMs: LONGEST_WAIT_MS,
    },
  ]),
) as Record<KeyKind, ThrottleRule>;

/** An attempt allowed (its keys claimed: `settle` when it is over), or refused by a key until later. */
export type ThrottleDecision =
  | { allowed: true; settle(succeeded: boolean): Promise<void> }
  | { allowed: false; key: string; retryAfterMs: number };

/**
 * Decides before the expensive work (scrypt): the node's in-flight cap per key first, then one
 * increment-then-check per key in the journal (claimSignInAttempt), shared by every node. A refused
 * claim gives back those taken before it. An attempt that succeeds gives its claims back (it was
 * no failure) and clears the account-and-client key.
 */
export function createSignInThrottle(store: Store) {
  const inFlight = new Map<string, number>();
  const leave = (keys: readonly string[]) => {
    for (const key of keys) {
      const left = (inFlight.get(key) ?? 1) - 1;
      if (left > 0) inFlight.set(key, left);
      else inFlight.delete(key);
    }
  };

  return async function attempt(keys: ThrottleKeys, now: Date): Promise<ThrottleDecision> {
    const busy = KINDS.find((kind) => (inFlight.get(keys[kind]) ?? 0) >= IN_FLIGHT[kind]);
    if (busy) {
      return { allowed: false, key: keys[busy], retryAfterMs: FIRST_WAIT_MS };
    }
    const entered = KINDS.map((kind) => keys[kind]);
    for (const key of entered) inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
    const claimed: string[] = [];
    for (const kind of KINDS) {
      const claim = await store.staff
        .claimSignInAttempt(keys[kind], rules[kind], now)
        .catch(async (error: unknown) => {
          leave(entered);
          await store.staff.releaseSignInAttempts(claimed);
          throw error;
        });
      if (!claim.claimed) {
        leave(entered);
        await store.staff.releaseSignInAttempts(claimed);
        return {
          allowed: false,
          key: keys[kind],
          retryAfterMs: Math.max(claim.retryAt.getTime() - now.getTime(), 1),
        };
      }
      claimed.push(keys[kind]);
    }
    return {
      allowed: true,
      async settle(succeeded) {
        leave(entered);
        if (!succeeded) return;
        await store.staff.clearSignInFailures(keys.pair);
        await store.staff.releaseSignInAttempts([keys.address, keys.account]);
      },
    };
  };
}

export type SignInThrottle = ReturnType<typeof createSignInThrottle>;
