import type { Kysely } from 'kysely';
import type { ConfirmationSends } from '../domain/confirmation-cap.ts';
import type { Lead } from '../domain/lead.ts';
import { normalizeEmail } from '../domain/lead.ts';
import { batchedPerTurn } from './batched-per-turn.ts';
import type { ConfirmationClaim } from './sqlite-turn-confirmations.ts';
import { inSqliteTurn, type SqliteTurns } from './sqlite-turns.ts';
import type { Database } from './tables.ts';

/** One row per endpoint and address: the lead that last claimed a confirmation, and when. */
export class SqlConfirmationSends implements ConfirmationSends {
  constructor(
    private readonly db: Kysely<Database>,
    /** SQLite: the claims of one turn in one transaction (sqlite-turn-confirmations.ts). */
    private readonly sqliteTurns?: SqliteTurns,
  ) {}

  claim(
    kind: Lead['kind'],
    email: string,
    leadId: string,
    at: Date,
    since: Date,
  ): Promise<boolean> {
    const request = { kind, email: normalizeEmail(email), leadId, at, since };
    return this.sqliteTurns ? this.claimInTurn(request) : this.claimAlone(request);
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

  private readonly claimInTurn = batchedPerTurn<ConfirmationClaim, boolean>((claims) =>
    inSqliteTurn(this.db, this.sqliteTurns!, (turns) => turns.confirmations.claim(claims)),
  );

  private async claimAlone({
    kind,
    email,
    leadId,
    at,
    since,
  }: ConfirmationClaim): Promise<boolean> {
    // Insert, or take the row over when it is older than the window or already ours; the WHERE of
    // the upsert makes the check and the write one statement (SQLite runs the same one per turn).
    const result = await this.db
      .insertInto('confirmation_sends')
      .values({ kind, email, lead_id: leadId, sent_at: at.toISOString() })
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
