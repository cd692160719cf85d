import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable, type SelectQueryBuilder } from 'kysely';
import {
  CONSENT_CHANNELS_OF,
  channelOf,
  OPEN_WORK_STATUSES,
  type Activity,
  type CaughtCount,
  type ActivityKind,
  type InboxEntry,
  type InboxFilter,
  type InboxOrder,
  type InboxPage,
  type InboxQuery,
  type LeadWork,
  type ReceivedCount,
  type StaffRef,
  type WorkStatus,
} from './lead-work.ts';
import { normalizeEmail } from '../../kernel/lead/lead.ts';
import { LEAD_STATUSES } from '../../kernel/lead/lead-status.ts';
import type { SpamReason } from '../../kernel/lead/spam-reason.ts';
import type { ConsentChannel } from '../../kernel/schemas/consent.ts';
import type { LeadKind } from '../../kernel/schemas/lead-kinds.ts';
import { entryOf } from '../../kernel/journal/lead-rows.ts';
import { searchWords, type LeadSearchDialect } from '../../kernel/journal/lead-search.ts';
import type { Database, LeadsTable } from '../../kernel/journal/tables.ts';

/**
 * Which of the periods [bounds[i], bounds[i+1]) holds `column`'s time, as SQL (the query's WHERE
 * keeps the whole span): several weeks counted in one pass (docs/performance.md, « The
 * workspace »). ISO times compare as text on SQLite and as timestamps on PostgreSQL alike.
 */
function periodOf(column: 'received_at', bounds: readonly Date[]) {
  const inner = bounds.slice(1, -1);
  if (inner.length === 0) return sql<number>`0`;
  const whens = inner.map(
    (bound, i) => sql`when ${sql.ref(column)} < ${bound.toISOString()} then ${i}`,
  );
  return sql<number>`case ${sql.join(whens, sql` `)} else ${inner.length} end`;
}

/** One list per period of `bounds`, from rows that say their period. */
function byPeriod<T>(
  bounds: readonly Date[],
  rows: readonly { period: number; value: T }[],
): T[][] {
  const periods = bounds.slice(1).map((): T[] => []);
  for (const { period, value } of rows) periods[Number(period)]!.push(value);
  return periods;
}

/** docs/workspace.md: the inbox says « plus de 1 000 » rather than count further. */
export const COUNT_CAP = 1000;

/**
 * docs/workspace.md, "Performances": a search for common words walks at most this many leads for
 * each row of its page, then reads the index's matches instead; so it walks only when at least one
 * lead in this many matches, enough to fill the page on the way.
 */
const WALKED_PER_ROW = 50;

/**
 * Every lead but those the bot trap holds, as a list rather than `status <> 'spam'`: SQLite walks
 * an index by the values of an IN list, where a `<>` makes it read every entry of the columns before
 * (docs/performance.md, « The workspace »: the dashboard's two waiting counts, 37 → 0.1 ms at
 * 100,000 leads).
 */
const NOT_HELD = LEAD_STATUSES.filter((status) => status !== 'spam');

/**
 * docs/performance.md, « Exports »: an export reads the journal this many leads at a time, each read
 * one synchronous stretch on SQLite, short enough for a lead POSTed meanwhile to be answered
 * between two, and without the count a page of the inbox shows.
 */
const EXPORT_PAGE = 100;

type LeadsQuery = SelectQueryBuilder<Database, 'leads', object>;

/** The team's side of the journal (docs/workspace.md), the same SQL on both dialects but search. */
export class SqlLeadWork implements LeadWork {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly search: LeadSearchDialect,
  ) {}

  page(query: InboxQuery): Promise<InboxPage> {
    return this.rowsOf(query, true);
  }

  /**
   * A page and, when `counted`, its filter's total. Without a search the total is all the first
   * query is for, so a page that shows none skips it; with words it also says how to read them.
   */
  private async rowsOf(
    { order = 'newest', after, limit, ...filter }: InboxQuery,
    counted: boolean,
  ): Promise<InboxPage> {
    const search = searchOf(filter.search);
    const filtered = this.filtered(this.db.selectFrom('leads'), filter);
    const matching = this.searched(filtered, search);
    // The count stops past COUNT_CAP: an exact total over 100,000 leads would cost more than the page.
    // Asked with it: whether the words are common enough for their page to be walked to.
    const { count, common } =
      counted || search.words.length
        ? await this.db
            .selectFrom(
              matching
                .select('id')
                .limit(COUNT_CAP + 1)
                .as('matching'),
            )
            .select((eb) => [
              eb.fn.countAll<number | string>().as('count'),
              (search.words.length
                ? this.search.isCommon(search.words, 1 / WALKED_PER_ROW)
                : eb.lit(false)
              ).as('common'),
            ])
            .executeTakeFirstOrThrow()
        : { count: 0, common: false };
    const direction = order === 'newest' ? 'desc' : 'asc';
    const cursor = after === undefined ? undefined : readCursor(after);
    const walked = common
      ? await this.commonWordsPage(
          inPageOrder(filtered, direction, cursor),
          search.words,
          direction,
          limit + 1,
        )
      : undefined;
    const rows =
      walked ??
      (await inPageOrder(matching, direction, cursor)
        .selectAll()
        .limit(limit + 1)
        .execute());
    const shown = rows.slice(0, limit);
    const last = shown.at(-1);
    return {
      entries: shown.map(inboxEntryOf),
      next: rows.length > limit && last ? writeCursor(last.received_at, last.id) : undefined,
      total: Number(count),
    };
  }

  /**
   * docs/workspace.md, "Performances": the page of a search for words found in many leads, read by
   * walking the leads in the page's order and testing each, which stops at the page, instead of
   * reading every match to sort them. Undefined when the page is not filled within the first
   * WALKED_PER_ROW leads a row (the matches are old, or the filters drop most leads): then the
   * index's matches are read as for any search.
   */
  private async commonWordsPage(
    ordered: LeadsQuery,
    words: readonly string[],
    direction: 'asc' | 'desc',
    rows: number,
  ): Promise<Selectable<LeadsTable>[] | undefined> {
    const found = await this.db
      // Named `leads`, as the dialects' tests name the row they test.
      .selectFrom(
        ordered
          .selectAll()
          .limit(rows * WALKED_PER_ROW)
          .as('leads'),
      )
      .selectAll()
      .where(this.search.matchesOneByOne(words))
      .orderBy('received_at', direction)
      .orderBy('id', direction)
      .limit(rows)
      .execute();
    return found.length === rows ? found : undefined;
  }

  async *all(filter: InboxFilter, order: InboxOrder = 'newest'): AsyncIterable<InboxEntry> {
    let after: string | undefined;
    do {
      const page = await this.rowsOf({ ...filter, order, after, limit: EXPORT_PAGE }, false);
      yield* page.entries;
      after = page.next;
    } while (after !== undefined);
  }

  async find(leadId: string): Promise<InboxEntry | undefined> {
    const row = await this.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', leadId)
      .executeTakeFirst();
    return row && inboxEntryOf(row);
  }

  async setStatus(leadId: string, status: WorkStatus, by: StaffRef, at: Date): Promise<boolean> {
    return this.change(leadId, 'status', status, by, at);
  }

  async assign(leadId: string, assignee: string | null, by: StaffRef, at: Date): Promise<boolean> {
    return this.change(leadId, 'assignee', assignee, by, at);
  }

  async markRead(leadId: string, by: StaffRef, at: Date): Promise<void> {
    await this.db
      .updateTable('leads')
      .set({ read_at: at.toISOString(), read_by: by.id })
      .where('id', '=', leadId)
      .where('read_at', 'is', null)
      .execute();
  }

  async addNote(leadId: string, text: string, by: StaffRef, at: Date): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const lead = await trx
        .selectFrom('leads')
        .select('id')
        .where('id', '=', leadId)
        .executeTakeFirst();
      if (!lead) return false;
      await trx
        .insertInto('lead_activity')
        .values(activityRow(leadId, 'note', text, null, by, at))
        .execute();
      return true;
    });
  }

  async activity(leadId: string): Promise<Activity[]> {
    const rows = await this.db
      .selectFrom('lead_activity')
      .selectAll()
      .where('lead_id', '=', leadId)
      .orderBy('at')
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      leadId: row.lead_id,
      at: new Date(row.at),
      by: { id: row.staff_id, name: row.staff_name },
      kind: row.kind as ActivityKind,
      value: row.value,
      previous: row.previous,
    }));
  }

  async lastNotes(leadIds: readonly string[]): Promise<Map<string, string>> {
    if (leadIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('lead_activity')
      .select(['lead_id', 'value'])
      .where('lead_id', 'in', leadIds)
      .where('kind', '=', 'note')
      .orderBy('at')
      .orderBy('id')
      .execute();
    // Oldest first: the last one set for a lead is its latest.
    return new Map(rows.map((row) => [row.lead_id, row.value ?? '']));
  }

  async countWaiting(kinds: readonly LeadKind[], cutoffs: readonly Date[]): Promise<number[]> {
    if (kinds.length === 0 || cutoffs.length === 0) return cutoffs.map(() => 0);
    const times = cutoffs.map((cutoff) => cutoff.toISOString());
    const latest = times.reduce((a, b) => (a > b ? a : b));
    const row = await this.db
      .selectFrom('leads')
      .select((eb) =>
        times.map((time, i) =>
          eb.fn
            .sum<number | string>(eb.case().when('received_at', '<=', time).then(1).else(0).end())
            .as(`upTo${i}`),
        ),
      )
      .where('answered_at', 'is', null)
      .where('work_status', 'in', [...OPEN_WORK_STATUSES])
      .where('status', 'in', NOT_HELD)
      .where('kind', 'in', [...kinds])
      .where('received_at', '<=', latest)
      .executeTakeFirst();
    const counts = (row ?? {}) as Record<string, number | string | null>;
    return times.map((_, i) => Number(counts[`upTo${i}`] ?? 0));
  }

  async countReceived(bounds: readonly Date[]): Promise<ReceivedCount[][]> {
    const rows = await this.db
      .selectFrom('leads')
      .select((eb) => [
        periodOf('received_at', bounds).as('period'),
        'kind',
        'consent_channel',
        eb('status', '=', 'spam').as('held'),
        eb.fn.countAll<number | string>().as('count'),
      ])
      .where('received_at', '>=', bounds[0]!.toISOString())
      .where('received_at', '<', bounds.at(-1)!.toISOString())
      .groupBy(['period', 'kind', 'consent_channel', 'held'])
      .execute();
    const counts = new Map<string, { period: number; value: ReceivedCount }>();
    for (const row of rows) {
      const channel = channelOf((row.consent_channel ?? undefined) as ConsentChannel | undefined);
      const held = Boolean(Number(row.held));
      const key = `${row.period} ${row.kind} ${channel} ${held}`;
      const count = counts.get(key) ?? {
        period: Number(row.period),
        value: { kind: row.kind as LeadKind, channel, held, count: 0 },
      };
      count.value.count += Number(row.count);
      counts.set(key, count);
    }
    return byPeriod(bounds, [...counts.values()]);
  }

  async startTimes(from: Date, to: Date): Promise<{ receivedAt: Date; startedAt: Date }[]> {
    const rows = await this.db
      .selectFrom('leads')
      .select(['received_at', 'started_at'])
      .where('started_at', '>=', from.toISOString())
      .where('started_at', '<', to.toISOString())
      .execute();
    return rows.map((row) => ({
      receivedAt: new Date(row.received_at),
      startedAt: new Date(row.started_at!),
    }));
  }

  async caughtByReason(bounds: readonly Date[]): Promise<CaughtCount[][]> {
    const rows = await this.db
      .selectFrom('leads')
      .select((eb) => [
        periodOf('received_at', bounds).as('period'),
        'spam_reason',
        eb.fn.countAll<number | string>().as('caught'),
        eb.fn
          .sum<number | string>(eb.case().when('status', '=', 'spam').then(1).else(0).end())
          .as('held'),
      ])
      // A released lead keeps its reason (journal-entry.ts): it was caught all the same.
      .where((eb) => eb.or([eb('status', '=', 'spam'), eb('spam_reason', 'is not', null)]))
      .where('received_at', '>=', bounds[0]!.toISOString())
      .where('received_at', '<', bounds.at(-1)!.toISOString())
      .groupBy(['period', 'spam_reason'])
      .execute();
    return byPeriod(
      bounds,
      rows.map((row) => ({
        period: Number(row.period),
        value: {
          reason: (row.spam_reason ?? null) as SpamReason | null,
          caught: Number(row.caught),
          held: Number(row.held ?? 0),
        },
      })),
    );
  }

  /** One change of status or assignee and its line in the history, together or not at all. */
  private async change(
    leadId: string,
    kind: 'status' | 'assignee',
    value: string | null,
    by: StaffRef,
    at: Date,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('leads')
        .select(['work_status', 'assignee', 'started_at'])
        .where('id', '=', leadId)
        .executeTakeFirst();
      if (!row) return false;
      const previous = kind === 'status' ? row.work_status : row.assignee;
      if (previous === value) return true;
      const when = at.toISOString();
      await trx
        .updateTable('leads')
        .set(
          kind === 'status'
            ? {
                work_status: value ?? 'nouveau',
                started_at: row.started_at ?? (value === 'nouveau' ? null : when),
              }
            : { assignee: value },
        )
        .where('id', '=', leadId)
        .execute();
      await trx
        .insertInto('lead_activity')
        .values(activityRow(leadId, kind, value, previous, by, at))
        .execute();
      return true;
    });
  }

  private filtered(query: LeadsQuery, filter: InboxFilter): LeadsQuery {
    let q = query;
    if (filter.held === true) q = q.where('status', '=', 'spam');
    // « À traiter » names the statuses, which its index (leads_awaiting_answer) is walked by; any
    // other view says `<>`: given an IN list, SQLite reads the status index and sorts every lead
    // (at 100,000 leads the inbox's first page 7 → 62 ms, a search 8 → 117 ms, an export 5 → 45 s).
    else if (filter.held !== 'also') {
      q = filter.awaitingAnswer
        ? q.where('status', 'in', NOT_HELD)
        : q.where('status', '<>', 'spam');
    }
    if (filter.kinds?.length) q = q.where('kind', 'in', [...filter.kinds]);
    if (filter.workStatuses?.length) q = q.where('work_status', 'in', [...filter.workStatuses]);
    if (filter.awaitingAnswer) {
      q = q.where('answered_at', 'is', null).where('work_status', 'in', [...OPEN_WORK_STATUSES]);
    }
    if (filter.assignee !== undefined) {
      q =
        filter.assignee === null
          ? q.where('assignee', 'is', null)
          : q.where('assignee', '=', filter.assignee);
    }
    if (filter.receivedFrom) q = q.where('received_at', '>=', filter.receivedFrom.toISOString());
    if (filter.receivedBefore) q = q.where('received_at', '<', filter.receivedBefore.toISOString());
    if (filter.deliveryStatuses?.length) q = q.where('status', 'in', [...filter.deliveryStatuses]);
    if (filter.unread) q = q.where('read_at', 'is', null);
    if (filter.sector) {
      const sector = filter.sector;
      q = q.where((eb) => eb(this.search.sector, '=', sector));
    }
    if (filter.channels?.length) {
      const consents = filter.channels.flatMap((channel) => CONSENT_CHANNELS_OF[channel]);
      const orNull = filter.channels.includes('api');
      q = q.where((eb) =>
        orNull
          ? eb.or([eb('consent_channel', 'in', consents), eb('consent_channel', 'is', null)])
          : eb('consent_channel', 'in', consents),
      );
    }
    return q;
  }

  private searched(query: LeadsQuery, search: Search): LeadsQuery {
    if (search.email !== undefined) return query.where('email', '=', search.email);
    return search.words.length ? query.where(this.search.matches(search.words)) : query;
  }
}

interface Search {
  email?: string;
  words: string[];
}

/** The search box: a whole address is looked up by the journal's e-mail column (indexed), not word by word. */
function searchOf(text = ''): Search {
  const search = text.trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(search)
    ? { email: normalizeEmail(search), words: [] }
    : { words: searchWords(search) };
}

function inboxEntryOf(row: Selectable<LeadsTable>): InboxEntry {
  return {
    ...entryOf(row),
    work: {
      status: row.work_status as WorkStatus,
      assignee: row.assignee,
      readAt: row.read_at === null ? null : new Date(row.read_at),
      readBy: row.read_by,
      startedAt: row.started_at === null ? null : new Date(row.started_at),
      answeredAt: row.answered_at === null ? null : new Date(row.answered_at),
    },
  };
}

let sequence = 0;

function activityRow(
  leadId: string,
  kind: ActivityKind,
  value: string | null,
  previous: string | null,
  by: StaffRef,
  at: Date,
) {
  sequence = (sequence + 1) % 1_000_000;
  return {
    // Sorts by time, then by order of writing on this node (two changes in one millisecond).
    id: `${at.toISOString()}.${String(sequence).padStart(6, '0')}.${randomUUID().slice(0, 8)}`,
    lead_id: leadId,
    at: at.toISOString(),
    staff_id: by.id,
    staff_name: by.name,
    kind,
    value,
    previous,
  };
}

/** The inbox's order, newest or oldest first, from just beyond the cursor of the previous page. */
function inPageOrder(
  query: LeadsQuery,
  direction: 'asc' | 'desc',
  cursor: [string, string] | undefined,
): LeadsQuery {
  let ordered = query;
  if (cursor) {
    const [at, id] = cursor;
    const beyond = direction === 'desc' ? '<' : '>';
    // The bound alone first: with the cursor as a bound parameter, SQLite read `a < ? or (a = ? and
    // …)` as a filter, walking the index from the first lead down to the cursor at every page (an
    // export's page 900 cost 5 times its first); `a <= ?` is a range it starts the walk at
    // (docs/performance.md, « Exports »).
    ordered = ordered
      .where('received_at', direction === 'desc' ? '<=' : '>=', at)
      .where((eb) =>
        eb.or([
          eb('received_at', beyond, at),
          eb.and([eb('received_at', '=', at), eb('id', beyond, id)]),
        ]),
      );
  }
  return ordered.orderBy('received_at', direction).orderBy('id', direction);
}

function writeCursor(receivedAt: string, id: string): string {
  return Buffer.from(JSON.stringify([receivedAt, id])).toString('base64url');
}

/** A cursor from a URL: anything malformed starts from the first page rather than failing. */
function readCursor(text: string): [string, string] | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return value as [string, string];
    }
  } catch {
    // falls through
  }
  return undefined;
}
