import type { Kysely, Selectable } from 'kysely';
import type {
  SignInClaim,
  SignInFailures,
  StaffAccount,
  StaffAccountChanges,
  StaffAuditEntry,
  StaffJournal,
  StaffRole,
  StaffSession,
  ThrottleRule,
} from './staff.ts';
import {
  auditRow,
  claimSignInAttempt,
  recordRepeated,
  releaseSignInAttempts,
} from './sql-sign-in-attempts.ts';
import type { Database, StaffAccountsTable } from '../../kernel/journal/tables.ts';

const iso = (date: Date) => date.toISOString();
const dateOrNull = (text: string | null) => (text === null ? null : new Date(text));

/** docs/workspace-security.md: the team's accounts, sessions and audit trail, both dialects. */
export class SqlStaff implements StaffJournal {
  constructor(private readonly db: Kysely<Database>) {}

  async addAccount(account: {
    id: string;
    email: string;
    name: string;
    role: StaffRole;
    now: Date;
  }): Promise<StaffAccount> {
    await this.db
      .insertInto('staff_accounts')
      .values({
        id: account.id,
        address: account.email,
        name: account.name,
        role: account.role,
        totp_required: 0,
        created_at: iso(account.now),
        updated_at: iso(account.now),
      })
      .onConflict((oc) => oc.column('address').doNothing())
      .execute();
    return (await this.accountByEmail(account.email))!;
  }

  async accountById(id: string): Promise<StaffAccount | undefined> {
    const row = await this.db
      .selectFrom('staff_accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && accountOf(row);
  }

  async accountByEmail(email: string): Promise<StaffAccount | undefined> {
    const row = await this.db
      .selectFrom('staff_accounts')
      .selectAll()
      .where('address', '=', email)
      .executeTakeFirst();
    return row && accountOf(row);
  }

  async accounts(): Promise<StaffAccount[]> {
    const rows = await this.db
      .selectFrom('staff_accounts')
      .selectAll()
      .orderBy('address')
      .execute();
    return rows.map(accountOf);
  }

  async updateAccount(id: string, changes: StaffAccountChanges, now: Date): Promise<void> {
    await this.db
      .updateTable('staff_accounts')
      .set({
        ...(changes.name !== undefined && { name: changes.name }),
        ...(changes.role !== undefined && { role: changes.role }),
        ...(changes.passwordHash !== undefined && { password_hash: changes.passwordHash }),
        ...(changes.totpSecret !== undefined && { totp_secret: changes.totpSecret }),
        ...(changes.totpRequired !== undefined && { totp_required: changes.totpRequired ? 1 : 0 }),
        ...(changes.totpLastStep !== undefined && { totp_last_step: changes.totpLastStep }),
        ...(changes.disabledAt !== undefined && {
          disabled_at: changes.disabledAt && iso(changes.disabledAt),
        }),
        updated_at: iso(now),
      })
      .where('id', '=', id)
      .execute();
    // docs/workspace-security.md, "Accounts": a link made before the account was disabled never
    // reopens it.
    if (changes.disabledAt) await this.spendInvitationsOf(this.db, id, now);
  }

  async claimTotpStep(id: string, step: number, now: Date): Promise<boolean> {
    const claimed = await this.db
      .updateTable('staff_accounts')
      .set({ totp_last_step: step, updated_at: iso(now) })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  private async spendInvitationsOf(db: Kysely<Database>, staffId: string, now: Date) {
    await db
      .updateTable('staff_invitations')
      .set({ used_at: iso(now) })
      .where('staff_id', '=', staffId)
      .where('used_at', 'is', null)
      .execute();
  }

  async addInvitation(invitation: {
    tokenHash: string;
    staffId: string;
    createdBy: string | null;
    now: Date;
    expiresAt: Date;
  }): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.spendInvitationsOf(trx, invitation.staffId, invitation.now);
      await trx
        .insertInto('staff_invitations')
        .values({
          token_hash: invitation.tokenHash,
          staff_id: invitation.staffId,
          created_by: invitation.createdBy,
          created_at: iso(invitation.now),
          expires_at: iso(invitation.expiresAt),
        })
        .execute();
    });
  }

  async invitation(tokenHash: string, now: Date): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('staff_invitations')
      .select('staff_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', iso(now))
      .executeTakeFirst();
    return row?.staff_id;
  }

  async useInvitation(tokenHash: string, now: Date): Promise<string | undefined> {
    const staffId = await this.invitation(tokenHash, now);
    if (!staffId) return undefined;
    // The guard on used_at makes the link single-use even when two nodes take it at once.
    const used = await this.db
      .updateTable('staff_invitations')
      .set({ used_at: iso(now) })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return undefined;
    await this.spendInvitationsOf(this.db, staffId, now);
    return staffId;
  }

  async addSession(session: { tokenHash: string } & StaffSession): Promise<void> {
    await this.db
      .insertInto('staff_sessions')
      .values({
        token_hash: session.tokenHash,
        staff_id: session.staffId,
        created_at: iso(session.createdAt),
        last_seen_at: iso(session.lastSeenAt),
        expires_at: iso(session.expiresAt),
      })
      .execute();
  }

  async session(tokenHash: string): Promise<StaffSession | undefined> {
    const row = await this.db
      .selectFrom('staff_sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return (
      row && {
        staffId: row.staff_id,
        createdAt: new Date(row.created_at),
        lastSeenAt: new Date(row.last_seen_at),
        expiresAt: new Date(row.expires_at),
      }
    );
  }

  async touchSession(tokenHash: string, now: Date): Promise<void> {
    await this.db
      .updateTable('staff_sessions')
      .set({ last_seen_at: iso(now) })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async deleteSession(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('staff_sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteSessionsOf(staffId: string): Promise<number> {
    const deleted = await this.db
      .deleteFrom('staff_sessions')
      .where('staff_id', '=', staffId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  async replaceRecoveryCodes(staffId: string, codeHashes: readonly string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('staff_recovery_codes').where('staff_id', '=', staffId).execute();
      if (codeHashes.length === 0) return;
      await trx
        .insertInto('staff_recovery_codes')
        .values(codeHashes.map((code_hash) => ({ staff_id: staffId, code_hash })))
        .execute();
    });
  }

  async useRecoveryCode(staffId: string, codeHash: string, now: Date): Promise<boolean> {
    const used = await this.db
      .updateTable('staff_recovery_codes')
      .set({ used_at: iso(now) })
      .where('staff_id', '=', staffId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1;
  }

  async recoveryCodesLeft(staffId: string): Promise<number> {
    const row = await this.db
      .selectFrom('staff_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('staff_id', '=', staffId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async signInFailures(keys: readonly string[]): Promise<Map<string, SignInFailures>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('staff_sign_in_failures')
      .selectAll()
      .where('key', 'in', [...keys])
      .execute();
    return new Map(
      rows.map((row) => [
        row.key,
        { failures: Number(row.failures), lastFailureAt: new Date(row.last_failure_at) },
      ]),
    );
  }

  claimSignInAttempt(key: string, rule: ThrottleRule, now: Date): Promise<SignInClaim> {
    return claimSignInAttempt(this.db, key, rule, now);
  }

  releaseSignInAttempts(keys: readonly string[]): Promise<void> {
    return releaseSignInAttempts(this.db, keys);
  }

  async clearSignInFailures(key: string): Promise<void> {
    await this.db.deleteFrom('staff_sign_in_failures').where('key', '=', key).execute();
  }

  async record(entry: StaffAuditEntry): Promise<void> {
    await this.db.insertInto('staff_audit').values(auditRow(entry)).execute();
  }

  recordRepeated(entry: StaffAuditEntry): Promise<void> {
    return recordRepeated(this.db, entry);
  }

  async auditTrail(query: {
    limit: number;
    before?: Date;
    action?: string;
  }): Promise<StaffAuditEntry[]> {
    let select = this.db
      .selectFrom('staff_audit')
      .selectAll()
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit);
    if (query.before) select = select.where('at', '<', iso(query.before));
    if (query.action) select = select.where('action', '=', query.action);
    const rows = await select.execute();
    return rows.map((row) => ({
      id: row.id,
      at: new Date(row.at),
      staffId: row.staff_id,
      actor: row.actor,
      action: row.action,
      target: row.target,
      detail: row.detail,
      repeats: Number(row.repeats),
    }));
  }

  async purgeBefore(before: Date): Promise<number> {
    const at = iso(before);
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('staff_sessions').where('expires_at', '<', at).execute();
      await trx.deleteFrom('staff_invitations').where('expires_at', '<', at).execute();
      await trx.deleteFrom('staff_sign_in_failures').where('last_failure_at', '<', at).execute();
      const deleted = await trx.deleteFrom('staff_audit').where('at', '<', at).executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }
}

function accountOf(row: Selectable<StaffAccountsTable>): StaffAccount {
  return {
    id: row.id,
    email: row.address,
    name: row.name,
    role: row.role as StaffRole,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    totpRequired: Number(row.totp_required) === 1,
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    disabledAt: dateOrNull(row.disabled_at),
    createdAt: new Date(row.created_at),
  };
}
