import type { Lead, LeadKind } from '../domain/lead.ts';

export type LeadStatus = 'pending' | 'delivered' | 'failed';
export const LEAD_STATUSES: readonly LeadStatus[] = ['pending', 'delivered', 'failed'];

/** One row of the journal, as the CLI and replay see it. */
export interface JournalEntry {
  lead: Lead;
  status: LeadStatus;
  attempts: number;
  lastError: string | null;
  providerAnswer: string | null;
  updatedAt: Date;
}

/** The durable journal of leads and the addresses known per audience (one small interface, two SQL dialects). */
export interface Store {
  /** Writes the lead as `pending`; resolves only once it is durably stored. */
  record(lead: Lead): Promise<void>;
  /** Marks the lead delivered and remembers its address; says whether the address was known before. */
  markDelivered(id: string, providerAnswer: string): Promise<{ alreadyKnown: boolean }>;
  markFailed(id: string, error: string): Promise<void>;
  list(filter?: { statuses?: readonly LeadStatus[]; kinds?: readonly LeadKind[] }): Promise<JournalEntry[]>;
  /** Throws when the database cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
