import type SQLite from 'better-sqlite3';
import type { ConfirmationClaim } from '../../domain/newsletter/confirmation-cap.ts';
import { CLAIM_SQL, claimParameters } from '../confirmation-claim-sql.ts';

/**
 * The confirmation cap's claims made in one turn of the event loop (the confirmation steps the
 * dispatcher runs at once), in one synchronous SQLite transaction of one statement prepared once,
 * instead of an autocommitted statement each (docs/performance.md, "The delivery path"). The
 * statement is CLAIM_SQL (confirmation-claim-sql.ts), the one PostgreSQL runs too; claims for one address in one turn are decided in order,
 * so the first wins as it would alone.
 */
export class SqliteTurnConfirmations {
  /** Answers each claim in order: true when it holds the right to confirm. */
  readonly claim: (claims: readonly ConfirmationClaim[]) => boolean[];

  constructor(database: SQLite.Database) {
    const upsert = database.prepare<[Record<string, string | number>]>(CLAIM_SQL);
    this.claim = database.transaction((claims: readonly ConfirmationClaim[]) =>
      claims.map((claim) => upsert.run(claimParameters(claim)).changes === 1),
    );
  }
}
