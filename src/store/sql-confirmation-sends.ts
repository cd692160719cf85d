import type { Kysely } from 'kysely';
import type { ConfirmationSends } from '../domain/confirmation-cap.ts';
import type { Lead } from '../domain/lead.ts';
import { normalizeEmail } from '../domain/lead.ts';
import type { JournalWrites } from './journal-writes.ts';
import type { Database } from './tables.ts';

/** One row per endpoint and address: the lead that last claimed a confirmation, and when. */
export class SqlConfirmationSends implements ConfirmationSends {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly writes: Pick<JournalWrites, 'claimConfirmation'>,
  ) {}

  claim(
    kind: Lead['kind'],
    email: string,
    leadId: string,
    at: Date,
    since: Date,
  ): Promise<boolean> {
    return this.writes.claimConfirmation({ kind, email: normalizeEmail(email), leadId, at, since });
  }

  async lastClaim(kind: Lead['kind'], email: string) {
    const row = await this.db
      .selectFrom('confirmation_sends')
      .select(['lead_id', 'sent_at'])
      .where('kind', '=', kind)
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
    return row ? { leadId: row.lead_id, at: new Date(row.sent_at) } : undefined;
  }
}
