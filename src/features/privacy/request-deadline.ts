import type { PrivacyRequestEntry } from './privacy-register.ts';

const PARIS_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day of a moment in Paris, `YYYY-MM-DD`. */
export function parisDay(at: Date): string {
  return PARIS_DAY.format(at);
}

/**
 * RGPD art. 12.3: an answer within one month of receipt. A period in months ends on the same day of
 * the next month, or on its last day when it has no such day (Regulation 1182/71, art. 3.2.c):
 * 31 January → 28 (or 29) February. Answered that day is in time.
 */
export function answerDeadline(receivedAt: Date): string {
  const [year, month, day] = parisDay(receivedAt).split('-').map(Number) as [
    number,
    number,
    number,
  ];
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(day, last))).toISOString().slice(0, 10);
}

/**
 * Whether the team still owes an answer: a request confirmed (by its link, or entered by hand)
 * without a date of answer. One still waiting for the person's link is theirs to confirm first.
 */
export function awaitsAnswer(entry: PrivacyRequestEntry): boolean {
  return entry.status === 'confirmed' && entry.answeredAt === null;
}

/** Owed and past its deadline, on the day `now` falls on in Paris. */
export function isOverdue(entry: PrivacyRequestEntry, now: Date): boolean {
  return awaitsAnswer(entry) && parisDay(now) > answerDeadline(entry.receivedAt);
}
