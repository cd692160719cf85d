import type { Kysely } from 'kysely';
import type { ConfirmationSends } from '../domain/confirmation-cap.ts';
import type { Lead } from '../domain/lead.ts';
import { normalizeEmail } from '../domain/lead.ts';
import type { Database } from './tables.ts';

/** One row per endpoint and address: the lead that last claimed a confirmation, and when. */
export class SqlConfirmationSends implements ConfirmationSends {
  constructor(private readonly db: Kysely<Database>) {}

  async claim(
    kind: Lead['kind'],
    email: string,
    leadId: string,
    at: Date,
    since: Date,
  ): Promise<boolean> {
    // Insert, or take the row over when it is older than the window or already ours; the WHERE of
    // the upsert makes the check and the write one statement (both dialects).
    const result = await this.db
      .insertInto('confirmation_sends')
      .values({ kind, email: normalizeEmail(email), lead_id: leadId, sent_at: at.toISOString() })
      .onConflict((oc) =>
        oc
          .columns(['kind', 'email'])
          .doUpdateSet({ lead_id: leadId, sent_at: at.toISOString() })
          .where((eb) =>
            eb.or([
              eb('confirmation_sends.sent_at', '<', since.toISOString()),
              eb('confirmation_sends.lead_id', '=', leadId),
            ]),
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
