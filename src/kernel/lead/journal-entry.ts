import type { LeadStatus } from './lead-status.ts';
import type { Lead } from './lead.ts';
import type { SpamReason } from './spam-reason.ts';

/** One row of the journal, as the CLI and replay see it. */
export interface JournalEntry {
  lead: Lead;
  status: LeadStatus;
  attempts: number;
  lastError: string | null;
  providerAnswer: string | null;
  updatedAt: Date;
  /**
   * Why the bot trap journaled it as `spam` (column `leads.spam_reason`): what the agency reviews
   * before `leads release`; kept after a release, null for a lead never caught.
   */
  spamReason: SpamReason | null;
}
