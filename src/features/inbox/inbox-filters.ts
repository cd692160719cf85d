import { ANSWERED_KINDS } from './answer-promise.ts';
import {
  LEAD_CHANNELS,
  LEAD_CHANNEL_LABELS,
  WORK_STATUSES,
  WORK_STATUS_LABELS,
  type InboxFilter,
  type InboxOrder,
} from './lead-work.ts';
import { LEAD_KINDS, type LeadKind } from '../../kernel/schemas/lead-kinds.ts';
import { SECTOR_LABELS } from '../../kernel/schemas/questionnaires.ts';
import { SECTORS } from '../../kernel/schemas/sectors.ts';
import { html, type HtmlValue } from '../staff/index.ts';
import { KIND_LABELS } from './lead-views.ts';

export type Query = Record<string, string | undefined>;

const pick = <T extends string>(value: string | undefined, allowed: readonly T[]) =>
  allowed.includes(value as T) ? [value as T] : undefined;

const day = (value: string | undefined) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;

/**
 * docs/workspace.md, « La boîte de réception »: the home view is the requests that promised an
 * answer and that nobody has started, the most overdue first; `vue=tous` is every lead, newest
 * first. A filter chosen in the form replaces the view's own (a status, a type, an order).
 */
export function viewOf(query: Query): 'a-traiter' | 'tous' {
  return query.vue === 'tous' ? 'tous' : 'a-traiter';
}

/** The inbox's GET filters (docs/workspace.md, "La boîte de réception"): unknown values are ignored. */
export function filterOf(query: Query): InboxFilter {
  const to = day(query.au);
  const home = viewOf(query) === 'a-traiter';
  return {
    kinds:
      pick(query.type, LEAD_KINDS.map((kind) => kind.kind) as LeadKind[]) ??
      (home ? ANSWERED_KINDS : undefined),
    workStatuses: pick(query.statut, WORK_STATUSES),
    awaitingAnswer: (home && !pick(query.statut, WORK_STATUSES)) || undefined,
    assignee: query.attribue === 'personne' ? null : query.attribue || undefined,
    channels: pick(query.canal, LEAD_CHANNELS),
    sector: pick(query.secteur, SECTORS)?.[0],
    receivedFrom: day(query.du),
    receivedBefore: to && new Date(to.getTime() + 86_400_000),
    search: query.q?.slice(0, 200) || undefined,
    unread: query['non-lus'] === '1' || undefined,
  };
}

export function orderOf(query: Query): InboxOrder {
  if (query.tri === 'echeance') return 'due';
  if (query.tri === 'recentes') return 'newest';
  return viewOf(query) === 'a-traiter' ? 'due' : 'newest';
}

/** The query string of `query` with `extra` over it ('' without any value). */
export function queryString(query: Query, extra: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, ...extra })) {
    if (value) params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

interface Filter {
  name: string;
  label: string;
  choices: readonly (readonly [string, string])[];
  /** The empty choice: what the view shows without this filter (« Tous » unless said). */
  any?: string;
}

const entries = (labels: Record<string, string>, values: readonly string[]) =>
  values.map((value) => [value, labels[value] ?? value] as const);

/** The filters in view (the most used, after the search), then those in « Plus de filtres ». */
function filters(
  staff: readonly (readonly [string, string])[],
  home: boolean,
): {
  main: Filter[];
  more: Filter[];
} {
  return {
    main: [
      {
        name: 'statut',
        label: 'Statut',
        choices: entries(WORK_STATUS_LABELS, WORK_STATUSES),
        ...(home && { any: 'À traiter' }),
      },
      { name: 'attribue', label: 'Attribué à', choices: [['personne', 'Personne'], ...staff] },
      {
        name: 'type',
        label: 'Type',
        ...(home && { any: 'Contact, audit' }),
        choices: entries(
          KIND_LABELS,
          LEAD_KINDS.map((kind) => kind.kind),
        ),
      },
    ],
    more: [
      { name: 'canal', label: 'Canal', choices: entries(LEAD_CHANNEL_LABELS, LEAD_CHANNELS) },
      { name: 'secteur', label: 'Secteur', choices: entries(SECTOR_LABELS, SECTORS) },
      {
        name: 'tri',
        label: 'Ordre',
        any: home ? 'Réponse due la première' : 'Plus récentes d’abord',
        choices: [
          ['echeance', 'Réponse due la première'],
          ['recentes', 'Plus récentes d’abord'],
        ],
      },
    ],
  };
}

function select(
  { name, label, choices, any = 'Tous' }: Filter,
  chosen: string | undefined,
): HtmlValue {
  return html`<p><label for="f-${name}">${label}</label>
<select id="f-${name}" name="${name}"><option value=""${chosen ? '' : html` selected`}>${any}</option>${choices.map(([value, text]) => html`<option value="${value}"${value === chosen ? html` selected` : ''}>${text}</option>`)}</select></p>`;
}

const DATES: readonly Filter[] = [
  { name: 'du', label: 'Reçues du', choices: [] },
  { name: 'au', label: 'au', choices: [] },
];

/**
 * docs/workspace.md, « La boîte de réception » (GOV.UK's « Filter a list »): the search and three
 * filters in view, the rest in a `<details>` that works without JavaScript, and every active
 * filter as a chip whose link removes it.
 */
export function filterForm(query: Query, staff: readonly (readonly [string, string])[]): HtmlValue {
  const { main, more } = filters(staff, viewOf(query) === 'a-traiter');
  const labelOf = (filter: Filter, value: string) =>
    filter.choices.find(([choice]) => choice === value)?.[1] ?? value;
  const chips = [
    ...(query.q ? [['q', `« ${query.q.slice(0, 200)} »`] as const] : []),
    ...[...main, ...more, ...DATES]
      .filter((filter) => query[filter.name])
      .map(
        (filter) =>
          [filter.name, `${filter.label} : ${labelOf(filter, query[filter.name]!)}`] as const,
      ),
    ...(query['non-lus'] === '1' ? [['non-lus', 'Non lus'] as const] : []),
  ];
  const kept = { ...query, apres: undefined };
  return html`<form method="get" action="/equipe" class="filters">
${query.vue === 'tous' ? html`<input type="hidden" name="vue" value="tous">` : ''}
<div class="filters-main">
<p class="filter-search"><label for="f-q">Rechercher<span class="wide-only"> (nom, e-mail, message, réponses)</span></label><input type="search" id="f-q" name="q" value="${query.q ?? ''}"></p>
${main.map((filter) => select(filter, query[filter.name]))}
<p class="filter-submit"><button type="submit">Filtrer</button></p>
</div>
<details class="filters-more"><summary>Plus de filtres</summary><div class="filters-main">
${more.map((filter) => select(filter, query[filter.name]))}
${DATES.map(({ name, label }) => html`<p><label for="f-${name}">${label}</label><input type="date" id="f-${name}" name="${name}" value="${query[name] ?? ''}"></p>`)}
</div></details>
</form>
${chips.length ? html`<ul class="chips" aria-label="Filtres actifs">${chips.map(([name, text]) => html`<li><a href="/equipe${queryString(kept, { [name]: undefined })}" aria-label="Retirer le filtre ${text}">${text} <span aria-hidden="true">×</span></a></li>`)}</ul>` : ''}`;
}
