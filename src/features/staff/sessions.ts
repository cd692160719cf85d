import type { StaffAccount } from './staff.ts';
import type { Store } from '../../kernel/journal/store.ts';
import { randomToken, tokenHash } from './secrets.ts';
import type { Staff } from './workspace-context.ts';

export interface SessionSettings {
  idleMs: number;
  maxMs: number;
}

/** A write per request would cost more than it tells: last-seen moves at most once a minute. */
const TOUCH_EVERY_MS = 60_000;

export function staffOf(account: StaffAccount): Staff {
  return { id: account.id, email: account.email, name: account.name, role: account.role };
}

/**
 * docs/workspace-security.md, "Sessions": a new random token at every sign-in; the journal keeps
 * its hash.
 */
export async function openSession(
  store: Store,
  staffId: string,
  now: Date,
  settings: SessionSettings,
): Promise<string> {
  const token = randomToken();
  await store.staff.addSession({
    tokenHash: tokenHash(token),
    staffId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + settings.maxMs),
  });
  return token;
}

/**
 * The account behind a session token, if the session is alive: not idle too long, not past its
 * absolute end, its account not disabled. A dead session is deleted on the way.
 */
export async function resumeSession(
  store: Store,
  token: string,
  now: Date,
  settings: SessionSettings,
): Promise<StaffAccount | undefined> {
  const hash = tokenHash(token);
  const session = await store.staff.session(hash);
  if (!session) return undefined;
  const idle = now.getTime() - session.lastSeenAt.getTime() > settings.idleMs;
  const over = now.getTime() >= session.expiresAt.getTime();
  const account = idle || over ? undefined : await store.staff.accountById(session.staffId);
  if (!account || account.disabledAt) {
    await store.staff.deleteSession(hash);
    return undefined;
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await store.staff.touchSession(hash, now);
  }
  return account;
}
