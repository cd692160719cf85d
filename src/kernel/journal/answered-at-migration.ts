import { sql, type Kysely, type Migration } from 'kysely';

/**
 * docs/workspace.md, « La promesse des 24 heures ouvrées »: the promise is kept or broken at a
 * lead's first answer (an e-mail sent from the workspace or a call recorded), not at a change of
 * status. `leads.answered_at` holds that first answer's time, filled from the answers already
 * given; « À traiter » reads the leads still without one through the dialect's index.
 */
export function answeredAtMigration(
  indexAwaitingAnswer: (db: Kysely<unknown>) => Promise<void>,
): Migration {
  return {
    async up(db) {
      await db.schema.alterTable('leads').addColumn('answered_at', 'text').execute();
      await sql`UPDATE leads SET answered_at = (SELECT MIN(a.at) FROM lead_answers a WHERE a.lead_id = leads.id)
        WHERE EXISTS (SELECT 1 FROM lead_answers a WHERE a.lead_id = leads.id)`.execute(db);
      await indexAwaitingAnswer(db);
    },
  };
}
