import { clientKey } from '../../kernel/http/limits/client-address.ts';
import type { Store } from '../../kernel/journal/store.ts';
import { tokenHash } from './secrets.ts';

/**
 * docs/workspace.md, "Sign-in throttling" (OWASP authentication cheat sheet): after a few free
 * failures, each new one doubles the wait before the next attempt, up to 15 minutes; counted per
 * account (whatever the address, against slow guessing from many places) and per client address
 * (against one client trying many accounts). An account key is the hash of the address typed, so an
 * unknown address is throttled exactly as a known one (no enumeration).
 */
const FREE_FAILURES = { account: 5, address: 20 } as const;
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 15 * 60 * 1000;

export interface ThrottleKeys {
  account: string;
  address: string;
}

export function throttleKeys(email: string, ip: string): ThrottleKeys {
  return { account: `account:${tokenHash(email)}`, address: `address:${clientKey(ip)}` };
}

export function waitAfter(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(FIRST_WAIT_MS * 2 ** (failures - free), LONGEST_WAIT_MS);
}

/** Milliseconds before another attempt is allowed with these keys (0: now). */
export async function throttledFor(store: Store, keys: ThrottleKeys, now: Date): Promise<number> {
  const counts = await store.staff.signInFailures([keys.account, keys.address]);
  let wait = 0;
  for (const kind of ['account', 'address'] as const) {
    const count = counts.get(keys[kind]);
    if (!count) continue;
    const until = count.lastFailureAt.getTime() + waitAfter(count.failures, FREE_FAILURES[kind]);
    wait = Math.max(wait, until - now.getTime());
  }
  return wait;
}
