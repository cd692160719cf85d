import type { LeadKind } from '../schemas/lead-kinds.ts';
import type { JournalEntry } from './delivery/journal-entry.ts';
import type { LeadStatus } from './delivery/lead-status.ts';
import type { DeliveryAlerts } from './delivery/alerts.ts';
import type { ConfirmationSends } from './newsletter/confirmation-cap.ts';
import type { Deliveries } from './delivery/deliveries.ts';
import type { IdempotencyKeys } from './intake/idempotency-keys.ts';
import type { LeadWork } from './team/lead-work.ts';
import type { NewsletterJournal } from './newsletter/newsletter.ts';
import type { OptOutList } from './newsletter/opt-out.ts';
import type { PrivacyRegister } from './privacy/privacy-register.ts';
import type { RateBudgets } from './delivery/rate-budget.ts';
import type { StaffJournal } from './team/staff.ts';
import type { TeamSummaryJournal } from './team/team-summary.ts';

export type { JournalEntry };

/** The durable journal of leads and the addresses known per audience (one small interface, two SQL dialects). */
export interface Store {
  list(filter?: {
    statuses?: readonly LeadStatus[];
    kinds?: readonly LeadKind[];
  }): Promise<JournalEntry[]>;
  /** How many leads have each status (`leads status`; the same rule as `list`'s filter). */
  countByStatus(): Promise<Record<LeadStatus, number>>;
  /** One journal entry by id. */
  find(id: string): Promise<JournalEntry | undefined>;
  /** Leads accepted with their steps, and the steps' delivery (docs/delivery.md). */
  readonly deliveries: Deliveries;
  /**
   * docs/delivery.md, « Alerts »: the delivery alerts open now, one per cause (the workspace's banner
   * and dashboard read `open()`).
   */
  readonly alerts: DeliveryAlerts;
  /** Provider rate budgets shared by every node on the database. */
  readonly budgets: RateBudgets;
  /** docs/reliability.md: Idempotency-Keys and body fingerprints, swept once expired. */
  readonly idempotency: IdempotencyKeys;
  /** docs/reliability.md: the confirmations claimed per endpoint and address (the 24 h cap). */
  readonly confirmations: ConfirmationSends;
  /**
   * Deletes the leads received before `before`, with their delivery steps and idempotency keys
   * (retention periods of the privacy policy); returns how many leads were deleted.
   */
  purgeReceivedBefore(before: Date): Promise<number>;
  /** The rights of access and erasure of each person (docs/consent.md). */
  readonly people: People;
  /**
   * A random key per purpose, made by whichever node asks first and shared by every node on the
   * database (the bot trap's token key: docs/api-decisions.md, "Bot trap").
   */
  secret(purpose: string): Promise<string>;
  /** docs/consent.md, "Requests about one's data": the register of RGPD requests. */
  readonly privacyRequests: PrivacyRegister;
  /** docs/consent.md: the newsletter's double opt-in and unsubscriptions. */
  readonly newsletter: NewsletterJournal;
  /** docs/workspace.md: the agency's team, its sessions and the audit trail. */
  readonly staff: StaffJournal;
  /** docs/workspace.md: the team's work on each lead, its inbox queries and search. */
  readonly work: LeadWork;
  /** docs/workspace.md, « Liste d’opposition »: addresses whose leads are handed to no one. */
  readonly optOut: OptOutList;
  /** docs/workspace.md, « Le point du matin »: the team's daily summary, sent once a business day. */
  readonly teamSummaries: TeamSummaryJournal;
  /** Throws when the database cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Everything the journal keeps about one address, for an access request (RGPD art. 15). */
export interface PersonFile {
  /** The address's salted hash: how logs and the forgotten list name the person. */
  reference: string;
  leads: JournalEntry[];
  /** The exact texts behind the consent hashes of these leads. */
  consentWordings: { hash: string; version: string; text: string }[];
  /** Every other row tied to these leads or to the address, table by table, as stored. */
  related: Record<string, Record<string, unknown>[]>;
  /** When the address was last erased, if ever (a later lead may have arrived since). */
  forgottenAt: Date | null;
}

export interface Expiry {
  people: number;
  leadIds: string[];
}

export interface ForgetResult {
  reference: string;
  leadIds: string[];
  /** The register's requests of the address, whose e-mails (link, answer) are erased with it. */
  requestIds: string[];
  /** Rows deleted, table by table (leads included). */
  deleted: Record<string, number>;
}

/**
 * The rights of access and erasure (docs/consent.md). Addresses are compared as normalizeEmail()
 * writes them. Any table with a `lead_id` column belongs to a lead, any with an `email` column to an
 * address: a table added later is covered without changing this code.
 */
export interface People {
  /** The salted hash (HMAC-SHA256 with a key kept in the database) naming the address. */
  reference(address: string): Promise<string>;
  show(address: string): Promise<PersonFile>;
  /** Deletes every row of the address in one transaction and notes its reference and the date. */
  forget(address: string, at: Date): Promise<ForgetResult>;
  /**
   * Storage limitation (RETENTION_DAYS): erases, as forget() does but keeping no reference, every
   * address whose last request arrived before the date; says how many addresses, and which leads.
   */
  expire(lastRequestBefore: Date): Promise<Expiry>;
}
