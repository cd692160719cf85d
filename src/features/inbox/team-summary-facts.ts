import { ANSWERED_KINDS, answerDueAt, PROMISED_HOURS } from './answer-promise.ts';
import { businessMsBetween, overdueCutoff, type BusinessHours } from './business-hours.ts';
import type { Store } from '../../kernel/journal/store.ts';
import type { LeadToSee, TeamSummaryFacts, WaitingLead } from './team-summary-email.ts';
import { kindLabel, personName, topicOf } from './lead-views.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { inboundMarks } from '../inbound/index.ts';

/** The summary lists this many leads at most; the rest are counted, with a link to the inbox. */
const LISTED = 50;

/**
 * What the team's daily summary says (docs/emails.md, « The daily summary »), read through the
 * store's port: the leads still without an answer whose sender was promised one, the one due first
 * on top (arrival order is due order), how many are overdue, what waits in « À vérifier », and
 * every other lead with an unread prospect message or a flagged address (docs/inbound.md).
 */
export async function teamSummaryFacts(
  store: Store,
  now: Date,
  hours: BusinessHours,
  minutesAfterMidnight: number,
): Promise<TeamSummaryFacts> {
  const [page, [waitingTotal, overdue], [caught]] = await Promise.all([
    store.work.page({
      awaitingAnswer: true,
      kinds: ANSWERED_KINDS,
      order: 'due',
      limit: LISTED,
    }),
    store.work.countWaiting(ANSWERED_KINDS, [now, overdueCutoff(now, PROMISED_HOURS, hours)]),
    store.work.caughtByReason([new Date(0), now]),
  ]);
  const listed = new Set(page.entries.map((entry) => entry.lead.id));
  const others = (
    await Promise.all(
      (await store.inbound.leadsToSee(LISTED))
        .filter((id) => !listed.has(id))
        .map((id) => store.work.find(id)),
    )
  ).filter((entry) => entry !== undefined);
  const inbound = await inboundMarks(store, [...page.entries, ...others]);
  const waiting = page.entries.flatMap((entry): WaitingLead[] => {
    const dueAt = answerDueAt(entry, hours);
    if (!dueAt) return [];
    return [
      {
        id: entry.lead.id,
        name: personName(entry),
        email: emailOf(entry.lead),
        kind: kindLabel(entry.lead.kind),
        topic: topicOf(entry),
        receivedAt: entry.lead.receivedAt,
        dueAt,
        leftMs: dueAt <= now ? 0 : businessMsBetween(now, dueAt, hours),
        inbound: inbound.sentences(entry),
      },
    ];
  });
  const toSee = others.flatMap((entry): LeadToSee[] => {
    const lines = inbound.sentences(entry);
    if (lines.length === 0) return [];
    return [
      { id: entry.lead.id, name: personName(entry), kind: kindLabel(entry.lead.kind), lines },
    ];
  });
  return {
    at: now,
    waiting,
    toSee,
    waitingTotal: waitingTotal!,
    overdue: overdue!,
    held: caught!.reduce((total, count) => total + count.held, 0),
    heldTooFast: caught!.find((count) => count.reason === 'too_fast')?.held ?? 0,
    minutesAfterMidnight,
  };
}
