import { randomUUID } from 'node:crypto';
import { normalizeEmail } from '../../kernel/lead/lead.ts';
import type { StaffRole } from './staff.ts';
import type { Store } from '../../kernel/journal/store.ts';
import { INVITATION_PARAMETER } from '../../kernel/schemas/workspace-paths.ts';
import { randomToken, tokenHash } from './secrets.ts';

export { INVITATION_PARAMETER };

/** docs/workspace-security.md, "Accounts": an invitation link works once, for 48 hours. */
export const INVITATION_LIFETIME_MS = 48 * 60 * 60 * 1000;
export const INVITATION_PATH = '/equipe/invitation';

export interface Invitation {
  staffId: string;
  email: string;
  /** The link to open: only this process ever sees the token; the journal keeps its hash. */
  link: string;
  expiresAt: Date;
}

/**
 * Creates the account if the address has none (`leadgate team add`, the team page) and a new
 * single-use link that sets its password. An existing account keeps its role and password until
 * the link is used: re-inviting is how a forgotten password is reset.
 */
export async function inviteStaff(
  store: Store,
  options: {
    email: string;
    role: StaffRole;
    siteUrl: string;
    now: Date;
    invitedBy: string | null;
  },
): Promise<Invitation> {
  const email = normalizeEmail(options.email);
  const account = await store.staff.addAccount({
    id: randomUUID(),
    email,
    name: '',
    role: options.role,
    now: options.now,
  });
  const token = randomToken();
  const expiresAt = new Date(options.now.getTime() + INVITATION_LIFETIME_MS);
  await store.staff.addInvitation({
    tokenHash: tokenHash(token),
    staffId: account.id,
    createdBy: options.invitedBy,
    now: options.now,
    expiresAt,
  });
  const link = `${options.siteUrl}${INVITATION_PATH}?${INVITATION_PARAMETER}=${token}`;
  return { staffId: account.id, email, link, expiresAt };
}

/** A plausible address (the API's own rule is stricter; this is the team's sign-in name). */
export function isAddress(value: string): boolean {
  return (
    /^[^\s@<>"(),;:]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(value.trim()) && value.length <= 254
  );
}
