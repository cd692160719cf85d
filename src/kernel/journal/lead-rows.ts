import type { SpamReason } from '../lead/spam-reason.ts';
import type { Selectable } from 'kysely';
import type { Lead } from '../lead/lead.ts';
import type { LeadStatus } from '../lead/lead-status.ts';
import type { JournalEntry } from './store.ts';
import { consentOf } from './sql-consent.ts';
import type { LeadsTable } from './tables.ts';

export function leadOf(row: Selectable<LeadsTable>): Lead {
  return {
    id: row.id,
    kind: row.kind,
    data: JSON.parse(row.payload),
    receivedAt: new Date(row.received_at),
    consent: consentOf(row),
  } as Lead;
}

export function entryOf(row: Selectable<LeadsTable>): JournalEntry {
  return {
    lead: leadOf(row),
    status: row.status as LeadStatus,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    providerAnswer: row.provider_answer,
    updatedAt: new Date(row.updated_at),
    spamReason: (row.spam_reason as SpamReason | null) ?? null,
  };
}

/**
 * Provider answers and errors quote what a remote server sent, NUL bytes included, and PostgreSQL's
 * text type refuses NUL: storing it would turn a 502 into a 500 and lose the account of the failure.
 */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}
