import type { FastifyInstance } from 'fastify';
import { parseBusinessHours } from './business-hours.ts';
import { LEAD_CHANNELS, LEAD_CHANNEL_LABELS, type ReceivedCount } from './lead-work.ts';
import { frenchDuration, frenchPlural } from '../../kernel/lead/french-date.ts';
import { SPAM_REASONS, spamReasonLabel, type SpamReason } from '../../kernel/lead/spam-reason.ts';
import { LEAD_KINDS } from '../../kernel/schemas/lead-kinds.ts';
import { barChart, type ChartRow } from './bar-chart.ts';
import { dashboardFigures, type WeekFigures } from './dashboard-figures.ts';
import type { AnswerFigures, AnswerLine } from './answer-figures.ts';
import { html, type HtmlValue } from '../staff/index.ts';
import { DELIVERY_LABELS, kindLabel, personName } from './lead-views.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { cell, parisTime, scrollingTable, sendWorkspacePage } from '../staff/index.ts';
import { destinationLabel } from '../delivery/index.ts';

const SERIES = ['Semaine en cours', 'Semaine dernière'] as const;

const DAY_NAME = new Intl.DateTimeFormat('fr-FR', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'Europe/Paris',
});

/** How long ago, roughly: « 40 min », « 5 h », « 3 jours ». */
function age(seconds: number): string {
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))}\u00a0min`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)}\u00a0h`;
  return `${Math.round(seconds / 86_400)}\u00a0jours`;
}

function sumWhere(counts: readonly ReceivedCount[], keep: (count: ReceivedCount) => boolean) {
  return counts.filter((count) => !count.held && keep(count)).reduce((n, c) => n + c.count, 0);
}

/** A table of the figures a chart draws: its accessible equivalent, exact to the unit. */
function figureTable(caption: string, rows: readonly ChartRow[], total = true): HtmlValue {
  const totals = SERIES.map((_, index) => rows.reduce((n, row) => n + (row.values[index] ?? 0), 0));
  const table = html`<table><caption>${caption}</caption>
<thead><tr><th scope="col">Catégorie</th>${SERIES.map((name) => html`<th scope="col">${name}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr><th scope="row">${row.label}</th>${row.values.map((value, index) => cell(SERIES[index]!, value))}</tr>`)}</tbody>
${total ? html`<tfoot><tr><th scope="row">Total</th>${totals.map((value, index) => cell(SERIES[index]!, value))}</tr></tfoot>` : ''}
</table>`;
  return scrollingTable(caption, table);
}

function receivedRows(weeks: readonly WeekFigures[], by: 'kind' | 'channel'): ChartRow[] {
  const keys = by === 'kind' ? LEAD_KINDS.map((descriptor) => descriptor.kind) : [...LEAD_CHANNELS];
  return keys.map((key) => ({
    label:
      by === 'kind' ? kindLabel(key) : LEAD_CHANNEL_LABELS[key as keyof typeof LEAD_CHANNEL_LABELS],
    values: weeks.map((week) => sumWhere(week.received, (count) => count[by] === key)),
  }));
}

function caughtRows(weeks: readonly WeekFigures[]): ChartRow[] {
  const reasons: (SpamReason | null)[] = [...SPAM_REASONS];
  if (weeks.some((week) => week.caught.some((count) => count.reason === null))) reasons.push(null);
  return reasons
    .map((reason) => ({
      label: spamReasonLabel(reason),
      values: weeks.map(
        (week) => week.caught.find((count) => count.reason === reason)?.caught ?? 0,
      ),
    }))
    .filter((row) => row.values.some((value) => value > 0));
}

/**
 * docs/workspace.md, « Le tableau de bord »: the leads first answered this week (e-mail or call),
 * the share within the promised 24 business hours, the median and the slowest, per person and
 * overall.
 */
function answersTable({ overall, perPerson }: AnswerFigures): HtmlValue {
  if (!overall) return html`<p>Aucune première réponse cette semaine.</p>`;
  const row = (line: AnswerLine, head: string) =>
    html`<tr><th scope="row">${head}</th>${cell('Prospects répondus', line.answered)}${cell('Dans les 24 heures ouvrées', `${Math.round((100 * line.inTime) / line.answered)}\u00a0% (${line.inTime})`)}${cell('Délai médian', frenchDuration(line.medianMs))}${cell('Le plus lent', frenchDuration(line.slowestMs))}</tr>`;
  return scrollingTable(
    'Premières réponses de la semaine',
    html`<table><caption>Premières réponses de la semaine en cours (e-mail ou appel, temps ouvré depuis l’arrivée)</caption>
<thead><tr><th scope="col">Qui</th><th scope="col">Prospects répondus</th><th scope="col">Dans les 24 heures ouvrées</th><th scope="col">Délai médian</th><th scope="col">Le plus lent</th></tr></thead>
<tbody>${perPerson.map((line) => row(line, line.name!))}</tbody>
<tfoot>${row(overall, 'Toute l’équipe')}</tfoot></table>`,
  );
}

/** `/equipe/tableau-de-bord`: the week's leads, the 24-hour promise, delivery and spam at a glance. */
export function registerDashboardRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  scope.get('/tableau-de-bord', async (request, reply) => {
    const now = context.now();
    const hours = parseBusinessHours(context.config.workspace.businessHours);
    const figures = await dashboardFigures(context.store, now, hours);
    const { thisWeek, lastWeek, backlog } = figures;
    const weeks = [thisWeek, lastWeek];
    const lastSunday = new Date(thisWeek.from.getTime() - 1);
    const byKind = receivedRows(weeks, 'kind');
    const byChannel = receivedRows(weeks, 'channel');
    const caught = caughtRows(weeks);
    const heldNow = thisWeek.caught.reduce((n, count) => n + count.held, 0);
    const caughtNow = thisWeek.caught.reduce((n, count) => n + count.caught, 0);
    const body = html`<p>Semaine en cours : depuis le ${DAY_NAME.format(thisWeek.from)} ; semaine dernière : du ${DAY_NAME.format(lastWeek.from)} au ${DAY_NAME.format(lastSunday)} (heure de Paris). Chiffres au ${parisTime(now)}.</p>
<h2>En ce moment</h2>
<ul class="dashboard-figures">
<li><strong>${figures.waiting}</strong> ${frenchPlural(figures.waiting, 'demande attend', 'demandes attendent')} une première réponse, dont <strong${figures.overdue ? html` class="overdue"` : ''}>${figures.overdue} en retard</strong> sur les 24 heures ouvrées. <a href="/equipe">Les voir dans « À traiter », réponse due la première</a></li>
<li>Étapes de livraison : <strong>${backlog.pending}</strong> en attente, <strong>${backlog.retrying}</strong> en échec (nouvel essai prévu), <strong>${backlog.dead}</strong> ${frenchPlural(backlog.dead, 'abandonnée', 'abandonnées')}, <strong>${backlog.refused}</strong> ${frenchPlural(backlog.refused, 'refusée', 'refusées')}${backlog.oldestAgeSeconds === null ? '' : html` ; la plus ancienne demande pas encore livrée est arrivée il y a ${age(backlog.oldestAgeSeconds)}`}.</li>
<li><strong>${caughtNow}</strong> ${frenchPlural(caughtNow, 'retenue', 'retenues')} par le piège à robots cette semaine, dont ${heldNow} encore dans <a href="/equipe/a-verifier">« À vérifier »</a>.</li>
</ul>
<h2>Prospects reçus</h2>
<div class="dashboard-pair">
<div>${barChart({ id: 'recus-type', title: 'Prospects reçus par type', series: SERIES, rows: byKind })}
${figureTable('Prospects reçus par type', byKind)}</div>
<div>${barChart({ id: 'recus-canal', title: 'Prospects reçus par canal', series: SERIES, rows: byChannel })}
${figureTable('Prospects reçus par canal', byChannel)}</div>
</div>
<h2>Réponses aux prospects</h2>
${answersTable(thisWeek.answers)}
<h2>Délai avant « en cours »</h2>
${scrollingTable(
  'Délai avant « en cours »',
  html`<table><caption>Demandes passées « en cours » dans la semaine (temps ouvré depuis leur arrivée)</caption>
<thead><tr><th scope="col">Semaine</th><th scope="col">Délai médian</th><th scope="col">Demandes prises en charge</th><th scope="col">Dans les 24 heures ouvrées</th></tr></thead>
<tbody>${weeks.map((week, index) => html`<tr><th scope="row">${SERIES[index]}</th>${cell('Délai médian', week.medianStartMs === null ? '—' : frenchDuration(week.medianStartMs))}${cell('Demandes prises en charge', week.started)}${cell('Dans les 24 heures ouvrées', week.startedInTime)}</tr>`)}</tbody></table>`,
)}
<h2>Livraison</h2>
${
  figures.destinations.length
    ? scrollingTable(
        'Étapes de livraison en cours ou en échec',
        html`<table><caption>Étapes de livraison non terminées ou refusées, par destination</caption>
<thead><tr><th scope="col">Destination</th><th scope="col">En attente</th><th scope="col">Nouvel essai prévu</th><th scope="col">Abandonnées</th><th scope="col">Refusées</th></tr></thead>
<tbody>${figures.destinations.map((line) => html`<tr><th scope="row">${destinationLabel(line.destination)}</th>${cell('En attente', line.pending)}${cell('Nouvel essai prévu', line.retrying)}${cell('Abandonnées', line.dead)}${cell('Refusées', line.refused)}</tr>`)}</tbody></table>`,
      )
    : html`<p>Tout est livré : aucune étape en attente ni en échec.</p>`
}
${
  figures.failing.length
    ? html`<p>Dernières demandes dont la livraison a échoué (leur fiche propose « Relancer ») :</p>
<ul>${figures.failing.map((entry) => html`<li><a href="/equipe/prospects/${entry.lead.id}">${personName(entry)}</a>, ${kindLabel(entry.lead.kind)} du ${parisTime(entry.lead.receivedAt)} : ${DELIVERY_LABELS[entry.status]}</li>`)}</ul>`
    : ''
}
<h2>Retenues par le piège à robots</h2>
${
  caught.length
    ? html`${barChart({ id: 'retenues', title: 'Demandes retenues par raison', series: SERIES, rows: caught })}
${figureTable('Demandes retenues par raison', caught)}`
    : html`<p>Aucune demande retenue ces deux semaines.</p>`
}`;
    return sendWorkspacePage(request, reply, {
      title: 'Tableau de bord',
      current: 'tableau-de-bord',
      body,
    });
  });
}
