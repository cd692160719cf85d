import { causeWords, type DeliveryAlert } from './alerts.ts';
import { frenchPlural } from '../../kernel/lead/french-date.ts';
import { leadPagePath, WORKSPACE_PATH } from '../../kernel/schemas/workspace-paths.ts';

/** One line on every workspace page while a delivery cause is open (docs/workspace.md). */
export interface DeliveryNotice {
  /** « 2 envois abandonnés : le webhook vers crm.example répond 500 depuis 08 h 16 ». */
  text: string;
  /** « Voir »: the one lead held, or the dashboard listing them (their pages have « Relancer »). */
  href: string;
}

const CLOCK = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const DAY = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: 'numeric',
  month: 'short',
});

/** « 08 h 16 » today (Paris time), « 1 déc. » before: the banner stays one line. */
function sinceWords(since: Date, now: Date): string {
  if (DAY.format(since) !== DAY.format(now)) return `le ${DAY.format(since)}`;
  return CLOCK.format(since).replace(':', '\u00a0h\u00a0');
}

/** The banner for the causes open now (oldest first), or none. */
export function deliveryNotice(
  open: readonly DeliveryAlert[],
  now: Date,
): DeliveryNotice | undefined {
  const [first] = open;
  if (!first) return undefined;
  const givenUp = open.reduce((sum, alert) => sum + alert.givenUp, 0);
  const waiting = open.reduce((sum, alert) => sum + alert.waiting, 0);
  const count = givenUp > 0 ? givenUp : waiting;
  const what =
    givenUp > 0
      ? frenchPlural(count, 'envoi abandonné', 'envois abandonnés')
      : frenchPlural(count, 'envoi en attente', 'envois en attente');
  const others = open.length - 1;
  const more =
    others > 0 ? ` (et ${others} ${frenchPlural(others, 'autre cause', 'autres causes')})` : '';
  const leads = new Set(open.flatMap((alert) => alert.leads.map((lead) => lead.id)));
  return {
    // No step held right now (they all went another way): the cause alone.
    text: `${count > 0 ? `${count} ${what}` : 'Livraison bloquée'} : ${causeWords(first)} depuis ${sinceWords(first.since, now)}${more}`,
    href: leads.size === 1 ? leadPagePath([...leads][0]!) : `${WORKSPACE_PATH}/tableau-de-bord`,
  };
}
