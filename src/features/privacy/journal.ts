import type { JournalEntry } from '../../kernel/lead/journal-entry.ts';
import type { PrivacyRegister } from './privacy-register.ts';

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
 * writes them. Any table with a `lead_id` column belongs to a lead, any with an `email` column to
 * an address: a table added later is covered without changing this code.
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

/** The part of the journal's port that privacy owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /** The rights of access and erasure of each person (docs/consent.md). */
    readonly people: People;
    /** docs/consent.md, "Requests about one's data": the register of RGPD requests. */
    readonly privacyRequests: PrivacyRegister;
  }
}
