import type { LeadKind } from '../../kernel/schemas/lead-kinds.ts';
import { addBusinessHours, type BusinessHours } from './business-hours.ts';
import { OPEN_WORK_STATUSES, type InboxEntry } from './lead-work.ts';

/*
 * The site's promise (spec 1; docs/workspace.md, "La promesse des 24 heures ouvrées"): a person who
 * asked something gets an answer within 24 business hours. The inbox, the lead page, the dashboard
 * and the team's daily summary all read it from here.
 */

/** The kinds whose sender was promised an answer (a newsletter sign-up asks nothing). */
export const ANSWERED_KINDS: readonly LeadKind[] = ['contact', 'audit'];
export const PROMISED_HOURS = 24;

/**
 * When a request of this kind received then is answered at the latest (undefined for a kind that
 * asks nothing): what the confirmation e-mail and the API's answer promise the person, in Paris
 * business hours and French public holidays (business-hours.ts).
 */
export function promisedAnswerAt(
  kind: LeadKind,
  receivedAt: Date,
  hours: BusinessHours,
): Date | undefined {
  return ANSWERED_KINDS.includes(kind)
    ? addBusinessHours(receivedAt, PROMISED_HOURS, hours)
    : undefined;
}

/**
 * The answer's due time, for a lead that promised one and has no answer yet (an e-mail sent from the
 * workspace or a call recorded): a status says what the team does, not what the person received.
 * A lead closed without an answer (« Traité », « Archivé ») owes none any more.
 */
export function answerDueAt(entry: InboxEntry, hours: BusinessHours): Date | undefined {
  if (entry.work.answeredAt || !OPEN_WORK_STATUSES.includes(entry.work.status)) return undefined;
  return promisedAnswerAt(entry.lead.kind, entry.lead.receivedAt, hours);
}
