import type { Generated } from 'kysely';

/** Kysely's view of the tables created by migrations.ts. Times are ISO-8601 text in both dialects. */
export interface LeadsTable {
  id: string;
  kind: string;
  email: string;
  payload: string;
  received_at: string;
  status: string;
  attempts: number;
  last_error: string | null;
  provider_answer: string | null;
  updated_at: string;
  /** docs/deployment.md: a replay on some node holds this lead until then (ISO-8601); null when free. */
  claimed_until: string | null;
  /** The consent record (docs/consent.md): SHA-256 of the wording, then when, how, where from. */
  consent_wording: string | null;
  consent_given_at: string | null;
  consent_channel: string | null;
  consent_page: string | null;
  /** Truncated client network (IPv4 /24, IPv6 /48). */
  consent_network: string | null;
  /** Why a `spam` lead is one (src/kernel/lead/spam-reason.ts); null for every other lead. */
  spam_reason: string | null;
  /** docs/workspace.md: the team's work on the lead (lead-work.ts), a staff id, its first reading. */
  work_status: Generated<string>;
  assignee: string | null;
  read_at: string | null;
  read_by: string | null;
  /** When the lead first left « nouveau ». */
  started_at: string | null;
  /** Its first answer (an e-mail or a call, lead_answers): the answer promise ends there. */
  answered_at: string | null;
}

/** docs/workspace.md: a lead's notes and changes of status or assignee, with who and when. */
export interface LeadActivityTable {
  id: string;
  lead_id: string;
  at: string;
  staff_id: string;
  /** The staff member's name then, so the history reads the same after an account is renamed. */
  staff_name: string;
  kind: string;
  value: string | null;
  previous: string | null;
}

/** Each consent wording ever shown, once, under the SHA-256 of its text. */
export interface ConsentWordingsTable {
  hash: string;
  version: string;
  text: string;
  stored_at: string;
}

export interface KnownAddressesTable {
  audience: string;
  email: string;
  first_seen_at: string;
}

/** docs/deployment.md: fixed-window rate-limit counters shared by every node on the database. */
export interface RateLimitHitsTable {
  key: string;
  hits: number;
  reset_at: string;
}

/** docs/reliability.md: Idempotency-Key of a request → the lead it journaled and how its hand-off ended. */
export interface IdempotencyKeysTable {
  key: string;
  fingerprint: string;
  lead_id: string;
  state: string;
  /** 0 or 1 once `done`; an integer because SQLite has no boolean. */
  existing: number | null;
  created_at: string;
  updated_at: string;
}

/** One step of a lead's delivery: one destination (docs/delivery.md). */
export interface DeliveryStepsTable {
  lead_id: string;
  destination: string;
  provider: string;
  status: string;
  attempts: number;
  next_attempt_at: string;
  /** A dispatcher holds the step until then (ISO-8601); null when free. */
  lease_until: string | null;
  last_error: string | null;
  detail: string | null;
  /** The lead's arrival, copied so the backlog's age needs no join. */
  received_at: string;
  updated_at: string;
  /** When a `dead` step was listed in the agency's alert e-mail. */
  alerted_at: string | null;
  /**
   * How many times the step was planned again (a later answer opens `staff-answer` again): a
   * settle writes its outcome only over the plan it claimed (docs/delivery.md, « The dispatcher »).
   */
  revision: Generated<number>;
}

/** A provider's rate budget: the next free call slot, in ms since the epoch (shared by every node). */
export interface ProviderBudgetsTable {
  key: string;
  /** No call before this moment (ms since the epoch): a 429's reset. */
  next_slot_at: number | string;
  /** The latest reserved calls, ms since the epoch, comma-separated, oldest first. */
  recent_calls: string;
}

/** Random keys generated once per database, shared by every node (docs/consent.md). */
export interface SecretsTable {
  name: string;
  value: string;
}

/** Addresses erased on request: only their salted hash and the date. */
export interface ForgottenPeopleTable {
  reference: string;
  forgotten_at: string;
}

/** docs/reliability.md: the last confirmation claimed per endpoint and address (the cap). */
export interface ConfirmationSendsTable {
  kind: string;
  /** The canonical mailbox (src/kernel/lead/canonical-mailbox.ts). */
  email: string;
  /** Its domain, for the hourly per-domain cap; null on rows older than that cap. */
  domain: string | null;
  lead_id: string;
  sent_at: string;
}

/**
 * docs/consent.md: what became of each newsletter subscription's confirmation link. Under
 * NEWSLETTER_DOUBLE_OPT_IN, the rows confirmed and not withdrawn are the list.
 */
export interface NewsletterConfirmationsTable {
  lead_id: string;
  email: string;
  confirmed_at: string | null;
  /** The network the link was followed from, truncated as in the consent record. */
  confirmed_network: string | null;
  withdrawn_at: string | null;
}

/** docs/workspace-security.md: the agency's team (staff-migration.ts). */
export interface StaffAccountsTable {
  id: string;
  address: string;
  name: string;
  role: string;
  password_hash: string | null;
  totp_secret: string | null;
  totp_required: number;
  totp_last_step: number | string | null;
  disabled_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StaffInvitationsTable {
  token_hash: string;
  staff_id: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface StaffSessionsTable {
  token_hash: string;
  staff_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface StaffRecoveryCodesTable {
  staff_id: string;
  code_hash: string;
  used_at: string | null;
}

export interface StaffSignInFailuresTable {
  key: string;
  failures: number;
  last_failure_at: string;
}

export interface StaffAuditTable {
  id: string;
  at: string;
  staff_id: string | null;
  actor: string;
  action: string;
  target: string | null;
  detail: string | null;
  repeats: Generated<number>;
}

/** docs/delivery.md, « Alerts »: the delivery alerts open now (or healed, their note not sent yet). */
export interface DeliveryAlertsTable {
  key: string;
  destination: string;
  /** JSON array of the destinations the cause holds back, when more than `destination`. */
  holds: string | null;
  provider: string;
  fix: string;
  said: string;
  since: string;
  last_at: string;
  count: number;
  /** When the agency was told; null while not yet. */
  announced_at: string | null;
  /** When a step of its destination went through again; null while open. */
  healed_at: string | null;
  /** When a node took its recovery note to send; null otherwise. */
  closing_at: string | null;
}

/** docs/consent.md, "Requests about one's data": one RGPD request; dates ISO-8601. */
export interface PrivacyRequestsTable {
  id: string;
  received_at: string;
  channel: string;
  kind: string;
  address: string | null;
  reference: string;
  status: string;
  confirmed_at: string | null;
  handled_by: string | null;
  answered_at: string | null;
  note: string | null;
  identity_check: string | null;
  outcome: string | null;
}

/**
 * docs/workspace-privacy.md, « Liste d’opposition »: an address by its reference only
 * (People.reference).
 */
export interface OptOutsTable {
  reference: string;
  added_at: string;
  added_by: string;
  reason: string | null;
}

/**
 * docs/workspace.md, « Le point du matin »: the team's summary of each business day, sent as a
 * delivery step is (`pending`, `retrying`, `done` or `dead`; leased, retried, settled).
 */
export interface TeamSummariesTable extends Pick<
  DeliveryStepsTable,
  'status' | 'attempts' | 'next_attempt_at' | 'lease_until' | 'last_error' | 'detail' | 'updated_at'
> {
  /** The Paris day, "YYYY-MM-DD". */
  day: string;
  due_at: string;
}

export interface Database {
  leads: LeadsTable;
  known_addresses: KnownAddressesTable;
  rate_limit_hits: RateLimitHitsTable;
  idempotency_keys: IdempotencyKeysTable;
  consent_wordings: ConsentWordingsTable;
  secrets: SecretsTable;
  forgotten_people: ForgottenPeopleTable;
  confirmation_sends: ConfirmationSendsTable;
  delivery_steps: DeliveryStepsTable;
  provider_budgets: ProviderBudgetsTable;
  newsletter_confirmations: NewsletterConfirmationsTable;
  staff_accounts: StaffAccountsTable;
  staff_invitations: StaffInvitationsTable;
  staff_sessions: StaffSessionsTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_sign_in_failures: StaffSignInFailuresTable;
  staff_audit: StaffAuditTable;
  delivery_alerts: DeliveryAlertsTable;
  privacy_requests: PrivacyRequestsTable;
  lead_activity: LeadActivityTable;
  opt_outs: OptOutsTable;
  team_summaries: TeamSummariesTable;
  lead_answers: LeadAnswersTable;
  inbound_messages: InboundMessagesTable;
  address_flags: AddressFlagsTable;
}

/**
 * docs/workspace.md, « Répondre »: each answer a staff member gave a lead, by e-mail (sent by the
 * `staff-answer` delivery step) or by phone (recorded, nothing sent).
 */
export interface LeadAnswersTable {
  id: string;
  lead_id: string;
  at: string;
  staff_id: string;
  /** The staff member's name then (the e-mail's sender name, the history's « par »). */
  staff_name: string;
  /** `email` or `phone`. */
  channel: string;
  subject: string | null;
  /** The e-mail's text, or the call's note. */
  body: string;
  /** The Message-ID of the confirmation it threads under (docs/emails.md); null when unknown. */
  in_reply_to: string | null;
  /** What the provider answered when it took the e-mail (its Message-ID); null until sent. */
  sent_detail: string | null;
  sent_at: string | null;
}

/** docs/inbound.md: a message a prospect sent us, attached to a lead or waiting in « À vérifier ». */
export interface InboundMessagesTable {
  id: string;
  lead_id: string | null;
  /** The sender's address, normalised. */
  email: string;
  received_at: string;
  /** `brevo` or `raw`: the route it came through. */
  source: string;
  message_id: string | null;
  subject: string;
  /** What the person wrote, as text; `quoted`: the history their mail program quoted below it. */
  body: string;
  quoted: string;
  /** JSON list of `{ name, size, type }`: attachments are listed, never kept. */
  attachments: string;
  /** `header` (In-Reply-To/References), `address`, or null (« À vérifier »). */
  matched_by: string | null;
  review_reason: string | null;
  read_at: string | null;
  read_by: string | null;
}

/** docs/inbound.md: what bounces and complaints say of an address (one row per address). */
export interface AddressFlagsTable {
  email: string;
  /** `unreachable`, `mailbox-full`, `soft-bounce` (below the repeats) or `complaint`. */
  state: string;
  soft_bounces: number;
  reason: string | null;
  flagged_at: string;
}
