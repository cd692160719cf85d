import { frenchDateTime } from '../kernel/lead/french-date.ts';
import type { Config } from '../kernel/config.ts';
import type { StaffRole } from '../features/staff/staff.ts';
import { inviteStaff, isAddress } from '../features/staff/invitations.ts';
import { auditEntry } from '../features/staff/staff-actions.ts';
import { withStore } from './leads-commands.ts';

/**
 * `leadgate team add <email> [--admin]` (docs/workspace-security.md, "Accounts"): the only way to
 * create the first admin; prints a single-use link (48 h) that opens the form setting the password.
 */
export async function addTeamMember(
  config: Config,
  email: string,
  role: StaffRole,
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): Promise<boolean> {
  if (!isAddress(email)) {
    err.write(`Adresse e-mail invalide : ${email}\n`);
    return false;
  }
  const invitation = await withStore(config, async (store) => {
    const made = await inviteStaff(store, {
      email,
      role,
      siteUrl: config.siteUrl,
      now: new Date(),
      invitedBy: null,
    });
    await store.staff.record(
      auditEntry(null, 'invite', new Date(), `staff:${made.staffId}`, role, 'leadgate team add'),
    );
    return made;
  });
  out.write(
    `Invitation pour ${invitation.email} (${role === 'admin' ? 'administrateur' : 'membre'}), valable une fois jusqu’au ${frenchDateTime(invitation.expiresAt)} (heure de Paris) :\n${invitation.link}\n`,
  );
  return true;
}
