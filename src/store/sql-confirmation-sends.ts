import { sql, type Kysely } from 'kysely';
import type { ConfirmationClaim, ConfirmationSends } from '../domain/confirmation-cap.ts';
import { normalizeEmail } from '../domain/lead.ts';
import { batchedPerTurn } from './batched-per-turn.ts';
import { CLAIM_SQL, claimParameters } from './confirmation-claim-sql.ts';
import { inSqliteTurn, type SqliteTurns } from './sqlite-turns.ts';
import type { Database } from './tables.ts';

/** The claim's text cut at its `$name` parameters: odd pieces are names, even ones SQL. */
const CLAIM_PIECES = CLAIM_SQL.split(/\$(\w+)/);

/** One row per endpoint and mailbox: the lead that last claimed a confirmation, when, and its domain. */
export class SqlConfirmationSends implements ConfirmationSends {
  constructor(
    private readonly db: Kysely<Database>,
    /** SQLite: the claims of one turn in one transaction (sqlite-turn-confirmations.ts). */
    private readonly sqliteTurns?: SqliteTurns,
  ) {}

  claim(claim: ConfirmationClaim): Promise<boolean> {
    const normalised = { ...claim, mailbox: normalizeEmail(claim.mailbox) };
    return this.sqliteTurns ? this.claimInTurn(normalised) : this.claimAlone(normalised);
  }

  private readonly claimInTurn = batchedPerTurn<ConfirmationClaim, boolean>((claims) =>
    inSqliteTurn(this.db, this.sqliteTurns!, (turns) => turns.confirmations.claim(claims)),
  );

  private async claimAlone(claim: ConfirmationClaim): Promise<boolean> {
    const values = claimParameters(claim);
    const statement = sql.join(
      CLAIM_PIECES.map((piece, index) => (index % 2 ? sql`${values[piece]}` : sql.raw(piece))),
      sql.raw(''),
    );
    const result = await statement.execute(this.db);
    return Number(result.numAffectedRows ?? 0n) === 1;
  }
}
