import type { LeadKind } from '../schemas/lead-kinds.ts';
import type { JournalEntry } from '../lead/journal-entry.ts';
import type { LeadStatus } from '../lead/lead-status.ts';
import type { ConfirmationSends } from '../lead/confirmation-cap.ts';
import type { Deliveries } from '../lead/deliveries.ts';
import type { Kysely } from 'kysely';
import type { LeadsImport } from './journal-import.ts';
import type { Database } from './tables.ts';

export type { JournalEntry };

/**
 * The durable journal of leads and the addresses known per audience (one small interface, two SQL
 * dialects). This is the kernel's part: the leads, their steps and the confirmation cap. Each
 * feature adds the part it owns in its `journal.ts` (TypeScript's module augmentation, as Fastify's
 * decorators do), so the kernel names no feature and `SqlStore` still has to implement every part
 * (docs/architecture.md, "The journal").
 */
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
  /** docs/reliability.md: the confirmations claimed per endpoint and address (the 24 h cap). */
  readonly confirmations: ConfirmationSends;
  /**
   * Deletes the leads received before `before`, with their delivery steps and idempotency keys
   * (retention periods of the privacy policy); returns how many leads were deleted.
   */
  purgeReceivedBefore(before: Date): Promise<number>;
  /**
   * A random key per purpose, made by whichever node asks first and shared by every node on the
   * database (the bot trap's token key: docs/api-decisions.md, "Bot trap").
   */
  secret(purpose: string): Promise<string>;
  /**
   * docs/operations.md, « Restore »: brings in the leads of another journal (one moved aside) that
   * this one lacks, and the steps it had finished.
   */
  importLeads(source: Kysely<Database>): Promise<LeadsImport>;
  /** Throws when the database cannot be reached (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
