import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { SignInClaim, StaffAuditEntry, ThrottleRule } from './staff.ts';
import type { Database } from '../../kernel/journal/tables.ts';

const iso = (date: Date) => date.toISOString();

/**
 * The latest last failure that lets an attempt through now: the waits grow with the failures, so
 * one case per count (a dozen at most: the wait doubles up to `longestMs`); ISO dates compare as text.
 */
function waitStartLimit(rule: ThrottleRule, now: Date): RawBuilder<string> {
  const before = (ms: number) => iso(new Date(now.getTime() - ms));
  const cases = [];
  for (let count = rule.free; rule.waitAfter(count) < rule.longestMs; count++) {
    cases.push(sql`when ${count} then ${before(rule.waitAfter(count))}`);
  }
  const longest = before(rule.longestMs);
  if (cases.length === 0) return sql<string>`${longest}`;
  return sql<string>`(case ${sql.ref('staff_sign_in_failures.failures')} ${sql.join(cases, sql` `)} else ${longest} end)`;
}

/**
 * docs/workspace-security.md, "Throttling": one upsert counts the attempt only when the rule allows
 * one now (ON CONFLICT … DO UPDATE … WHERE, in SQLite and PostgreSQL alike), so parallel requests
 * and other nodes never both take the last free attempt.
 */
export async function claimSignInAttempt(
  db: Kysely<Database>,
  key: string,
  rule: ThrottleRule,
  now: Date,
): Promise<SignInClaim> {
  const claimed = await db
    .insertInto('staff_sign_in_failures')
    .values({ key, failures: 1, last_failure_at: iso(now) })
    .onConflict((oc) =>
      oc
        .column('key')
        .doUpdateSet((eb) => ({
          failures: eb('staff_sign_in_failures.failures', '+', 1),
          last_failure_at: iso(now),
        }))
        .where((eb) =>
          eb.or([
            eb('staff_sign_in_failures.failures', '<', rule.free),
            eb('staff_sign_in_failures.last_failure_at', '<=', waitStartLimit(rule, now)),
          ]),
        ),
    )
    .returning('failures')
    .executeTakeFirst();
  if (claimed) return { claimed: true };
  const row = await db
    .selectFrom('staff_sign_in_failures')
    .select(['failures', 'last_failure_at'])
    .where('key', '=', key)
    .executeTakeFirst();
  const failures = Number(row?.failures ?? rule.free);
  const waitStartedAt = new Date(row?.last_failure_at ?? now);
  const retryAt = new Date(waitStartedAt.getTime() + rule.waitAfter(failures));
  return { claimed: false, failures, waitStartedAt, retryAt };
}

export async function releaseSignInAttempts(
  db: Kysely<Database>,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .updateTable('staff_sign_in_failures')
    .set((eb) => ({ failures: eb('failures', '-', 1) }))
    .where('key', 'in', [...keys])
    .where('failures', '>', 0)
    .execute();
}

/** An entry of the audit trail as its row in staff_audit. */
export function auditRow(entry: StaffAuditEntry) {
  return {
    id: entry.id,
    at: iso(entry.at),
    staff_id: entry.staffId,
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    detail: entry.detail,
  };
}

/** One line per id: the first occurrence inserts it, the next ones count on it (repeats + 1). */
export async function recordRepeated(db: Kysely<Database>, entry: StaffAuditEntry): Promise<void> {
  await db
    .insertInto('staff_audit')
    .values({ ...auditRow(entry), repeats: 1 })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        repeats: eb('staff_audit.repeats', '+', 1),
        at: eb.ref('excluded.at'),
      })),
    )
    .execute();
}
