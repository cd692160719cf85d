import type { Kysely } from 'kysely';
import { canonicalMailbox } from '../../kernel/lead/canonical-mailbox.ts';
import type { ConfirmationClaim, ConfirmationSends } from '../../kernel/lead/confirmation-cap.ts';
import { normalizeEmail } from '../../kernel/lead/lead.ts';
import type { JournalWrites } from '../../kernel/journal/journal-writes.ts';
import type { Database } from '../../kernel/journal/tables.ts';

/** One row per endpoint and mailbox: the lead that last claimed a confirmation, when, and its domain. */
export class SqlConfirmationSends implements ConfirmationSends {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly writes: Pick<JournalWrites, 'claimConfirmation'>,
  ) {}

  claim(claim: ConfirmationClaim): Promise<boolean> {
    return this.writes.claimConfirmation({ ...claim, mailbox: normalizeEmail(claim.mailbox) });
  }

  async lastClaim(kind: string, email: string) {
    const row = await this.db
      .selectFrom('confirmation_sends')
      .select(['lead_id', 'sent_at'])
      .where('kind', '=', kind)
      .where('email', '=', canonicalMailbox(email).mailbox)
      .executeTakeFirst();
    return row ? { leadId: row.lead_id, at: new Date(row.sent_at) } : undefined;
  }
}
