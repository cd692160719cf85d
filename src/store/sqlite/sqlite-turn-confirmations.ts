import type SQLite from 'better-sqlite3';
import type { ConfirmationClaim } from '../journal-writes.ts';

/**
 * The confirmation cap's claims made in one turn of the event loop (the confirmation steps the
 * dispatcher runs at once), in one synchronous SQLite transaction of one statement prepared once,
 * instead of an autocommitted statement each (docs/performance.md, "The delivery path"). The
 * statement is PostgreSQL's upsert (postgres-journal-writes.ts); claims for one address in one turn are decided in order,
 * so the first wins as it would alone.
 */
export class SqliteTurnConfirmations {
  /** Answers each claim in order: true when it holds the right to confirm. */
  readonly claim: (claims: readonly ConfirmationClaim[]) => boolean[];

  constructor(database: SQLite.Database) {
    const upsert = database.prepare<[Record<string, string>]>(
      'insert into "confirmation_sends" ("kind", "email", "lead_id", "sent_at") values (@kind, @email, @lead_id, @sent_at) on conflict ("kind", "email") do update set "lead_id" = @lead_id, "sent_at" = @sent_at where "confirmation_sends"."sent_at" < @since or "confirmation_sends"."lead_id" = @lead_id',
    );
    this.claim = database.transaction((claims: readonly ConfirmationClaim[]) =>
      claims.map(
        ({ kind, email, leadId, at, since }) =>
          upsert.run({
            kind,
            email,
            lead_id: leadId,
            sent_at: at.toISOString(),
            since: since.toISOString(),
          }).changes === 1,
      ),
    );
  }
}
