import type { ConfirmationClaim } from '../lead/confirmation-cap.ts';

/**
 * docs/reliability.md, "Hostile input": a confirmation's claim in one statement, the same text for
 * both dialects (`$name` parameters: better-sqlite3 reads them as named, sql-confirmation-sends.ts
 * binds them for PostgreSQL). Inserted when the domain has room this hour (or this lead already
 * holds a claim: a re-delivery), or taking the mailbox's row over when it is older than the window
 * or already this lead's. No row written: the caps hold the e-mail back.
 */
export const CLAIM_SQL = `insert into "confirmation_sends" ("kind", "email", "domain", "lead_id", "sent_at")
select $kind, $email, $domain, $lead_id, $sent_at
where $domain_max = 0
  or (select count(*) from "confirmation_sends"
      where "domain" = $domain and "sent_at" >= $domain_since and "lead_id" <> $lead_id) < $domain_max
  or exists (select 1 from "confirmation_sends"
      where "kind" = $kind and "email" = $email and "lead_id" = $lead_id)
on conflict ("kind", "email") do update
  set "lead_id" = excluded."lead_id", "sent_at" = excluded."sent_at", "domain" = excluded."domain"
  where "confirmation_sends"."sent_at" < $since or "confirmation_sends"."lead_id" = $lead_id`;

export function claimParameters(claim: ConfirmationClaim): Record<string, string | number> {
  return {
    kind: claim.kind,
    email: claim.mailbox,
    domain: claim.domain,
    lead_id: claim.leadId,
    sent_at: claim.at.toISOString(),
    since: claim.since.toISOString(),
    domain_max: claim.domainMax,
    domain_since: claim.domainSince.toISOString(),
  };
}
