import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Lead, LeadKind } from '../domain/lead.ts';
import { emailOf, normalizeEmail } from '../domain/lead.ts';
import { SqlHandoffs } from './sql-handoffs.ts';
import { SqlIdempotencyKeys } from './sql-idempotency-keys.ts';
import { SqlRateLimitCounters } from './sql-rate-limit-counters.ts';
import type { JournalEntry, LeadStatus, ReplayLease, Store } from './store.ts';
import type { Database, LeadsTable } from './tables.ts';

export interface SqlStoreOptions {
  now?: () => Date;
  /** PostgreSQL: replays on several nodes skip each other's locked rows (SQLite has one writer anyway). */
  skipLocked?: boolean;
}

/** The journal in SQL that SQLite and PostgreSQL both run: one implementation, two dialects. */
export class SqlStore implements Store {
  private readonly now: () => Date;
  private readonly skipLocked: boolean;
  readonly idempotency: SqlIdempotencyKeys;
  readonly handoffs: SqlHandoffs;
  readonly rateLimits: SqlRateLimitCounters;

  constructor(
    private readonly db: Kysely<Database>,
    options: SqlStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.skipLocked = options.skipLocked ?? false;
    this.idempotency = new SqlIdempotencyKeys(db);
    this.handoffs = new SqlHandoffs(db);
    this.rateLimits = new SqlRateLimitCounters(db, this.now);
  }

  async find(id: string): Promise<JournalEntry | undefined> {
    const row = await this.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toEntry(row) : undefined;
  }

  async record(lead: Lead): Promise<void> {
    await this.db
      .insertInto('leads')
      .values({
        id: lead.id,
        kind: lead.kind,
        email: normalizeEmail(emailOf(lead)),
        payload: JSON.stringify(lead.data),
        received_at: lead.receivedAt.toISOString(),
        status: 'pending',
        attempts: 0,
        updated_at: lead.receivedAt.toISOString(),
      })
      .execute();
  }

  async markDelivered(id: string, providerAnswer: string): Promise<{ alreadyKnown: boolean }> {
    const at = this.now().toISOString();
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('leads')
        .set((eb) => ({
          status: 'delivered',
          attempts: eb('attempts', '+', 1),
          provider_answer: storableText(providerAnswer),
          last_error: null,
          updated_at: at,
        }))
        .where('id', '=', id)
        .returning(['kind', 'email'])
        .executeTakeFirstOrThrow();
      // The primary key makes "first to deliver wins" atomic, even across nodes sharing a database.
      const inserted = await trx
        .insertInto('known_addresses')
        .values({ audience: row.kind, email: row.email, first_seen_at: at })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return { alreadyKnown: Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0 };
    });
  }

  async markFailed(id: string, error: string): Promise<void> {
    await this.db
      .updateTable('leads')
      .set((eb) => ({
        status: 'failed',
        attempts: eb('attempts', '+', 1),
        last_error: storableText(error),
        updated_at: this.now().toISOString(),
        // The attempt is over: release a replay's lease, or the next replay would skip the lead.
        claimed_until: null,
      }))
      .where('id', '=', id)
      .execute();
  }

  async list(
    filter: { statuses?: readonly LeadStatus[]; kinds?: readonly LeadKind[] } = {},
  ): Promise<JournalEntry[]> {
    let query = this.db.selectFrom('leads').selectAll().orderBy('received_at').orderBy('id');
    if (filter.statuses?.length) query = query.where('status', 'in', [...filter.statuses]);
    if (filter.kinds?.length) query = query.where('kind', 'in', [...filter.kinds]);
    const rows = await query.execute();
    return rows.map(toEntry);
  }

  async claimForReplay(lease: ReplayLease): Promise<JournalEntry | undefined> {
    const now = this.now().toISOString();
    const after = lease.after && {
      receivedAt: lease.after.receivedAt.toISOString(),
      id: lease.after.id,
    };
    const replayable = (eb: ExpressionBuilder<Database, 'leads'>) =>
      eb.and([
        ...(after
          ? [
              eb.or([
                eb('received_at', '>', after.receivedAt),
                eb.and([eb('received_at', '=', after.receivedAt), eb('id', '>', after.id)]),
              ]),
            ]
          : []),
        eb.or([
          eb('status', '=', 'failed'),
          eb.and([
            eb('status', '=', 'pending'),
            eb('received_at', '<', lease.staleBefore.toISOString()),
          ]),
        ]),
        eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]),
      ]);
    let oldest = this.db
      .selectFrom('leads')
      .select('id')
      .where(replayable)
      .orderBy('received_at')
      .orderBy('id')
      .limit(1);
    // Two replays picking at once: PostgreSQL's SKIP LOCKED sends the second to the next row; SQLite
    // runs this one UPDATE under its single write lock. The outer condition is re-checked on the
    // locked row, so a lease taken meanwhile is never taken twice.
    if (this.skipLocked) oldest = oldest.forUpdate().skipLocked();
    const row = await this.db
      .updateTable('leads')
      .set({ claimed_until: lease.leaseUntil.toISOString() })
      .where('id', '=', oldest)
      .where(replayable)
      .returningAll()
      .executeTakeFirst();
    return row ? toEntry(row) : undefined;
  }

  async purgeReceivedBefore(before: Date): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const old = trx
        .selectFrom('leads')
        .select('id')
        .where('received_at', '<', before.toISOString());
      await trx.deleteFrom('lead_handoffs').where('lead_id', 'in', old).execute();
      await trx.deleteFrom('idempotency_keys').where('lead_id', 'in', old).execute();
      const deleted = await trx
        .deleteFrom('leads')
        .where('received_at', '<', before.toISOString())
        .executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }

  async ping(): Promise<void> {
    await this.db.selectFrom('leads').select('id').limit(1).execute();
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

function toEntry(row: Selectable<LeadsTable>): JournalEntry {
  return {
    lead: {
      id: row.id,
      kind: row.kind,
      data: JSON.parse(row.payload),
      receivedAt: new Date(row.received_at),
    } as Lead,
    status: row.status as LeadStatus,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    providerAnswer: row.provider_answer,
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Provider answers and errors quote what a remote server sent, NUL bytes included, and PostgreSQL's
 * text type refuses NUL: storing it would turn a 502 into a 500 and lose the account of the failure.
 */
function storableText(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}
