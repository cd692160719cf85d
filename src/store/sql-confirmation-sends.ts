import type { ConfirmationSends } from '../domain/confirmation-cap.ts';
import type { Lead } from '../domain/lead.ts';
import { normalizeEmail } from '../domain/lead.ts';
import type { JournalWrites } from './journal-writes.ts';

/** One row per endpoint and address: the lead that last claimed a confirmation, and when. */
export class SqlConfirmationSends implements ConfirmationSends {
  constructor(private readonly writes: Pick<JournalWrites, 'claimConfirmation'>) {}

  claim(
    kind: Lead['kind'],
    email: string,
    leadId: string,
    at: Date,
    since: Date,
  ): Promise<boolean> {
    return this.writes.claimConfirmation({ kind, email: normalizeEmail(email), leadId, at, since });
  }
}
