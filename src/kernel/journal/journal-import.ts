import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import { leadStatusOf } from '../lead/lead-status.ts';
import type { StepStatus } from '../lead/deliveries.ts';
import type { Database, LeadsTable } from './tables.ts';

/** What `leads import` did (docs/operations.md, « Restore »). */
export interface LeadsImport {
  /** Leads the other journal held and this one did not, brought in with their steps. */
  imported: number;
  /** Steps this journal still had to do that the other journal had already done. */
  settled: number;
}

/** `columns`, if they name every column of LeadsTable: one added there and not here fails to compile. */
function everyLeadColumn<const T extends readonly (keyof LeadsTable)[]>(
  columns: T & ([Exclude<keyof LeadsTable, T[number]>] extends [never] ? unknown : never),
): T {
  return columns;
}

/**
 * The columns a lead is written with, every one of LeadsTable. Not `selectAll()`: PostgreSQL
 * derives stored columns from the payload (`search_words`, `audit_sector`:
 * src/kernel/journal/postgres/postgres-lead-search.ts) that an INSERT may not write and SQLite has
 * not; the target journal computes its own.
 */
const LEAD_COLUMNS = everyLeadColumn([
  'id',
  'kind',
  'email',
  'payload',
  'received_at',
  'status',
  'attempts',
  'last_error',
  'provider_answer',
  'updated_at',
  'claimed_until',
  'consent_wording',
  'consent_given_at',
  'consent_channel',
  'consent_page',
  'consent_network',
  'spam_reason',
  'work_status',
  'assignee',
  'read_at',
  'read_by',
  'started_at',
  'answered_at',
]);

/** A step the provider already answered for good: never to be sent again. */
const FINISHED: readonly string[] = ['done', 'refused'];
/** Enough ids per `in (…)` for SQLite's and PostgreSQL's parameter limits. */
const CHUNK = 500;

/**
 * docs/operations.md, « Restore »: brings in a moved-aside journal (`source`). Its leads unknown
 * here (by id) come with their steps, consent wording, activity, idempotency records and known
 * address, as they stood; their unfinished steps are then delivered as any. A lead known here takes
 * from it each step it had finished, so a restored backup does not send again what was delivered
 * after the backup was taken. One transaction: run it again, nothing changes.
 */
export async function importLeads(
  target: Kysely<Database>,
  source: Kysely<Database>,
): Promise<LeadsImport> {
  const leads = await source
    .selectFrom('leads')
    .select(LEAD_COLUMNS)
    .orderBy('received_at')
    .execute();
  const result: LeadsImport = { imported: 0, settled: 0 };
  await target.transaction().execute(async (trx) => {
    for (let start = 0; start < leads.length; start += CHUNK) {
      const chunk = leads.slice(start, start + CHUNK);
      const ids = chunk.map((lead) => lead.id);
      const known = new Set(
        (await trx.selectFrom('leads').select('id').where('id', 'in', ids).execute()).map(
          (row) => row.id,
        ),
      );
      const fresh = chunk.filter((lead) => !known.has(lead.id));
      if (fresh.length > 0) {
        await bringIn(
          trx,
          source,
          fresh.map((lead) => ({ ...lead, claimed_until: null })),
        );
      }
      result.imported += fresh.length;
      result.settled += await settleFinished(trx, source, [...known]);
      await bringTeamWork(trx, source, ids);
    }
  });
  return result;
}

async function bringIn(
  trx: Transaction<Database>,
  source: Kysely<Database>,
  leads: Selectable<LeadsTable>[],
): Promise<void> {
  const ids = leads.map((lead) => lead.id);
  const wordings = leads.map((lead) => lead.consent_wording).filter((hash) => hash !== null);
  await copyRows(trx, source, 'consent_wordings', 'hash', [...new Set(wordings)]);
  await trx.insertInto('leads').values(leads).execute();
  await copyRows(trx, source, 'delivery_steps', 'lead_id', ids, (step) => ({
    ...step,
    lease_until: null,
  }));
  await copyRows(trx, source, 'idempotency_keys', 'lead_id', ids);
  await copyRows(trx, source, 'known_addresses', 'email', [
    ...new Set(leads.map((lead) => lead.email)),
  ]);
}

/**
 * What the team did and received on the leads, known here or not, after the backup: notes and
 * changes, answers (docs/workspace.md, « Répondre ») and the prospects' messages (docs/inbound.md),
 * each row by its own id (one already here stays); the first answer then ends the answer promise
 * of a lead the backup held unanswered.
 */
async function bringTeamWork(
  trx: Transaction<Database>,
  source: Kysely<Database>,
  ids: string[],
): Promise<void> {
  await copyRows(trx, source, 'lead_activity', 'lead_id', ids);
  await copyRows(trx, source, 'lead_answers', 'lead_id', ids);
  await copyRows(trx, source, 'inbound_messages', 'lead_id', ids);
  await sql`UPDATE leads SET answered_at = (SELECT MIN(a.at) FROM lead_answers a WHERE a.lead_id = leads.id)
    WHERE answered_at IS NULL AND id IN (${sql.join(ids)})
    AND EXISTS (SELECT 1 FROM lead_answers a WHERE a.lead_id = leads.id)`.execute(trx);
}

type TiedTable =
  | 'consent_wordings'
  | 'delivery_steps'
  | 'lead_activity'
  | 'idempotency_keys'
  | 'known_addresses'
  | 'lead_answers'
  | 'inbound_messages';

/** The source's rows of `table` whose `column` is one of `values`, copied; a row already here stays. */
async function copyRows<T extends TiedTable>(
  trx: Transaction<Database>,
  source: Kysely<Database>,
  table: T,
  column: keyof Database[T] & string,
  values: readonly string[],
  adapt: (row: Selectable<Database[T]>) => Selectable<Database[T]> = (row) => row,
): Promise<void> {
  if (values.length === 0) return;
  // Kysely cannot follow a table chosen by a type parameter: the names are checked by the signature.
  const rows = (await source
    .selectFrom(table as TiedTable)
    .selectAll()
    .where(column as never, 'in', values as never)
    .execute()) as Selectable<Database[T]>[];
  if (rows.length === 0) return;
  await trx
    .insertInto(table as TiedTable)
    .values(rows.map(adapt) as never)
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Each step of `ids` the source finished and this journal has not: taken as the source has it. */
async function settleFinished(
  trx: Transaction<Database>,
  source: Kysely<Database>,
  ids: string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const finished = await source
    .selectFrom('delivery_steps')
    .selectAll()
    .where('lead_id', 'in', ids)
    .where('status', 'in', FINISHED)
    .execute();
  const touched = new Set<string>();
  let settled = 0;
  for (const step of finished) {
    const { numUpdatedRows } = await trx
      .updateTable('delivery_steps')
      .set({
        status: step.status,
        attempts: step.attempts,
        last_error: step.last_error,
        detail: step.detail,
        updated_at: step.updated_at,
        lease_until: null,
      })
      .where('lead_id', '=', step.lead_id)
      .where('destination', '=', step.destination)
      .where('status', 'not in', FINISHED)
      .executeTakeFirst();
    if (numUpdatedRows === 0n) continue;
    settled += 1;
    touched.add(step.lead_id);
  }
  for (const id of touched) {
    const steps = await trx
      .selectFrom('delivery_steps')
      .select('status')
      .where('lead_id', '=', id)
      .execute();
    await trx
      .updateTable('leads')
      .set({ status: leadStatusOf(steps.map((step) => step.status as StepStatus)) })
      .where('id', '=', id)
      .where('status', '!=', 'spam')
      .execute();
  }
  return settled;
}
