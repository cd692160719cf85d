import type { LeadKind } from '../../kernel/schemas/lead-kinds.ts';
import { addBusinessHours, type BusinessHours } from './business-hours.ts';
import type { InboxEntry } from './lead-work.ts';

/*
 * The site's promise (spec 1; docs/workspace.md, "La promesse des 24 heures ouvrées"): a person who
 * asked something gets an answer within 24 business hours. The inbox, the lead page, the dashboard
 * and the team's daily summary all read it from here.
 */

/** The kinds whose sender was promised an answer (a newsletter sign-up asks nothing). */
export const ANSWERED_KINDS: readonly LeadKind[] = ['contact', 'audit'];
export const PROMISED_HOURS = 24;

/** The answer's due time, for a lead that promised one and is still « nouveau ». */
export function answerDueAt(entry: InboxEntry, hours: BusinessHours): Date | undefined {
  if (entry.work.status !== 'nouveau' || !ANSWERED_KINDS.includes(entry.lead.kind)) {
    return undefined;
  }
  return addBusinessHours(entry.lead.receivedAt, PROMISED_HOURS, hours);
}
