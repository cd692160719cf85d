import { ANSWERED_KINDS, PROMISED_HOURS } from './answer-promise.ts';
import { answerFigures, median, type AnswerFigures } from './answer-figures.ts';
import type { FirstAnswer } from '../answers/index.ts';
import { summarizeBacklog, type BacklogSummary } from '../delivery/index.ts';
import {
  addDays,
  businessMsBetween,
  overdueCutoff,
  parisTimeOn,
  parisWeekStart,
  type BusinessHours,
} from './business-hours.ts';
import type { BacklogLine } from '../../kernel/lead/deliveries.ts';
import type { CaughtCount, InboxEntry, ReceivedCount } from './lead-work.ts';
import type { Store } from '../../kernel/journal/store.ts';

/** One week's figures: the current week runs from Monday 00:00 (Paris) to now. */
export interface WeekFigures {
  from: Date;
  to: Date;
  received: ReceivedCount[];
  /** Business time from arrival to « en cours » of the leads started that week, in ms. */
  medianStartMs: number | null;
  started: number;
  /** Of those, started within the promised 24 business hours. */
  startedInTime: number;
  caught: CaughtCount[];
  /** The leads first answered that week (e-mail or call), against the 24-hour promise. */
  answers: AnswerFigures;
}

/** What /equipe/tableau-de-bord shows (docs/workspace.md, « Le tableau de bord »). */
export interface DashboardFigures {
  thisWeek: WeekFigures;
  lastWeek: WeekFigures;
  /** Leads with a promised answer not given yet, and those past their 24 business hours. */
  waiting: number;
  overdue: number;
  backlog: BacklogSummary;
  destinations: BacklogLine[];
  /** The latest leads whose delivery failed, was given up or refused (their page has « Relancer »). */
  failing: InboxEntry[];
}

/**
 * What one query a figure reads for both weeks: `bounds` are last week's start, this week's and
 * now; the per-period lists hold last week's (0) and this week's (1).
 */
interface WeeksRead {
  bounds: [Date, Date, Date];
  received: ReceivedCount[][];
  starts: { receivedAt: Date; startedAt: Date }[];
  caught: CaughtCount[][];
  firsts: FirstAnswer[];
}

function weekFigures(read: WeeksRead, week: 0 | 1, hours: BusinessHours): WeekFigures {
  const [from, to] = [read.bounds[week], read.bounds[week + 1]!];
  const within = (at: Date) => at >= from && at < to;
  const delays = read.starts
    .filter(({ startedAt }) => within(startedAt))
    .map(({ receivedAt, startedAt }) => businessMsBetween(receivedAt, startedAt, hours));
  return {
    from,
    to,
    received: read.received[week]!,
    medianStartMs: median(delays),
    started: delays.length,
    startedInTime: delays.filter((ms) => ms <= PROMISED_HOURS * 3_600_000).length,
    caught: read.caught[week]!,
    answers: answerFigures(
      read.firsts.filter(({ at }) => within(at)),
      hours,
    ),
  };
}

/** The delivery statuses of the leads the dashboard lists as failing, and how many it lists. */
const FAILING = ['failed', 'dead', 'refused'] as const;
const FAILING_SHOWN = 10;

const newestFirst = (a: InboxEntry, b: InboxEntry) =>
  b.lead.receivedAt.getTime() - a.lead.receivedAt.getTime() ||
  (a.lead.id < b.lead.id ? 1 : a.lead.id > b.lead.id ? -1 : 0);

/**
 * The latest leads whose delivery failed, one query per status (docs/performance.md, « The
 * workspace »): each reads its status's leads newest first from the index and stops at the page,
 * where `status in (…)` of three made SQLite read and sort every failed lead of the journal.
 */
async function latestFailing(store: Store): Promise<InboxEntry[]> {
  const pages = await Promise.all(
    FAILING.map((status) => store.work.page({ deliveryStatuses: [status], limit: FAILING_SHOWN })),
  );
  return pages
    .flatMap((page) => page.entries)
    .sort(newestFirst)
    .slice(0, FAILING_SHOWN);
}

/**
 * Every figure of the dashboard, read through the store's port (the same SQL on both journals):
 * each figure reads both weeks in one query, the two waiting counts in another
 * (docs/performance.md, « The workspace »).
 */
export async function dashboardFigures(
  store: Store,
  now: Date,
  hours: BusinessHours,
): Promise<DashboardFigures> {
  const monday = parisWeekStart(now);
  const weekStart = parisTimeOn(monday, 0);
  const lastWeekStart = parisTimeOn(addDays(monday, -7), 0);
  const bounds: [Date, Date, Date] = [lastWeekStart, weekStart, now];
  const overdueAt = overdueCutoff(now, PROMISED_HOURS, hours);
  const [received, starts, caught, firsts, [waiting, overdue], destinations, failing] =
    await Promise.all([
      store.work.countReceived(bounds),
      store.work.startTimes(lastWeekStart, now),
      store.work.caughtByReason(bounds),
      store.answers.firstAnswers(lastWeekStart, now),
      store.work.countWaiting(ANSWERED_KINDS, [now, overdueAt]),
      store.deliveries.backlog(),
      latestFailing(store),
    ]);
  const read = { bounds, received, starts, caught, firsts };
  return {
    thisWeek: weekFigures(read, 1, hours),
    lastWeek: weekFigures(read, 0, hours),
    waiting: waiting!,
    overdue: overdue!,
    backlog: summarizeBacklog(destinations, now),
    destinations,
    failing,
  };
}
