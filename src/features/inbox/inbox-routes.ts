import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answerDueAt } from './answer-promise.ts';
import { parseBusinessHours } from './business-hours.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { excelContext, exportChunks } from './lead-export.ts';
import { frenchPlural } from '../../kernel/lead/french-date.ts';
import {
  LEAD_CHANNELS,
  LEAD_CHANNEL_LABELS,
  WORK_STATUSES,
  WORK_STATUS_LABELS,
  type InboxEntry,
  type InboxFilter,
  type WorkStatus,
} from './lead-work.ts';
import { LEAD_KINDS, type LeadKind } from '../../kernel/schemas/lead-kinds.ts';
import { SECTOR_LABELS } from '../../kernel/schemas/questionnaires.ts';
import { SECTORS } from '../../kernel/schemas/sectors.ts';
import { html, type HtmlValue } from '../staff/index.ts';
import { inboundMarks } from '../inbound/index.ts';
import {
  channelLabel,
  DELIVERY_LABELS,
  KIND_LABELS,
  kindLabel,
  personName,
  topicOf,
} from './lead-views.ts';
import { formList, formText } from '../staff/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { refusalPage, sameOriginPath } from '../staff/index.ts';
import { csrfField, parisTime, scrollingTable, sendWorkspacePage } from '../staff/index.ts';

type Query = Record<string, string | undefined>;

const pick = <T extends string>(value: string | undefined, allowed: readonly T[]) =>
  allowed.includes(value as T) ? [value as T] : undefined;

const day = (value: string | undefined) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : undefined;

/** The inbox's GET filters (docs/workspace.md, "La boîte de réception"): unknown values are ignored. */
export function filterOf(query: Query): InboxFilter {
  const to = day(query.au);
  return {
    kinds: pick(query.type, LEAD_KINDS.map((kind) => kind.kind) as LeadKind[]),
    workStatuses: pick(query.statut, WORK_STATUSES),
    assignee: query.attribue === 'personne' ? null : query.attribue || undefined,
    channels: pick(query.canal, LEAD_CHANNELS),
    sector: pick(query.secteur, SECTORS)?.[0],
    receivedFrom: day(query.du),
    receivedBefore: to && new Date(to.getTime() + 86_400_000),
    search: query.q?.slice(0, 200) || undefined,
    unread: query['non-lus'] === '1' || undefined,
  };
}

function options(values: readonly string[], labels: Record<string, string>, chosen?: string) {
  return values.map(
    (value) =>
      html`<option value="${value}"${value === chosen ? html` selected` : ''}>${labels[value] ?? value}</option>`,
  );
}

function select(name: string, label: string, choices: HtmlValue, chosen?: string) {
  return html`<p><label for="f-${name}">${label}</label>
<select id="f-${name}" name="${name}"><option value=""${chosen ? '' : html` selected`}>Tous</option>${choices}</select></p>`;
}

export async function staffNames(context: WorkspaceContext): Promise<Map<string, string>> {
  const accounts = await context.store.staff.accounts();
  return new Map(accounts.map((account) => [account.id, account.name || account.email]));
}

function row(
  entry: InboxEntry,
  names: Map<string, string>,
  now: Date,
  context: WorkspaceContext,
  optedOut: Set<string>,
  inbound: Awaited<ReturnType<typeof inboundMarks>>,
) {
  const due = answerDueAt(entry, parseBusinessHours(context.config.workspace.businessHours));
  const late = due !== undefined && due <= now;
  const assignee = entry.work.assignee
    ? (names.get(entry.work.assignee) ?? 'Compte supprimé')
    : '—';
  const id = entry.lead.id;
  // docs/inbound.md: a new message from the prospect makes the lead unread again in the list.
  const read = entry.work.readAt && !inbound.unread.has(entry.lead.id);
  return html`<tr${read ? '' : html` class="unread"`}>
<td><input type="checkbox" name="ids" value="${id}" id="sel-${id}" form="bulk"><label for="sel-${id}" class="visually-hidden">Choisir ${personName(entry)}</label></td>
<td>${parisTime(entry.lead.receivedAt)}</td>
<td>${kindLabel(entry.lead.kind)}</td>
<th scope="row"><a href="/equipe/prospects/${id}">${personName(entry)}</a>${entry.work.readAt ? '' : html` <span class="badge">non lu</span>`}${inbound.badges(entry)}</th>
<td>${emailOf(entry.lead)}</td>
<td>${topicOf(entry)}</td>
<td>${channelLabel(entry)}</td>
<td>${WORK_STATUS_LABELS[entry.work.status]}</td>
<td>${assignee}</td>
<td>${due ? html`${late ? html`<strong class="overdue">En retard</strong> depuis ` : 'avant '}${parisTime(due)}` : '—'}</td>
<td>${DELIVERY_LABELS[entry.status]}${optedOut.has(emailOf(entry.lead)) ? html` <span class="badge">opposition</span>` : ''}</td>
</tr>`;
}

function queryString(query: Query, extra: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...query, ...extra })) {
    if (value) params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** `/equipe`: the leads, newest first or by answer due, filtered by a GET form (docs/workspace.md). */
export function registerInboxRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  scope.get('/', async (request, reply) => {
    const query = request.query as Query;
    const order = query.tri === 'echeance' ? 'due' : 'newest';
    const filter = filterOf(query);
    const [page, names] = await Promise.all([
      context.store.work.page({ ...filter, order, after: query.apres, limit: 50 }),
      staffNames(context),
    ]);
    // docs/workspace.md, « Liste d’opposition »: a lead of a listed address is kept, and flagged.
    const [optedOut, inbound] = await Promise.all([
      context.store.optOut.among(page.entries.map((entry) => emailOf(entry.lead))),
      inboundMarks(context.store, page.entries),
    ]);
    const now = context.now();
    const total = page.total > 1000 ? 'plus de 1 000' : String(page.total);
    const kept = { ...query, apres: undefined };
    const staffOptions = [...names].map(([id, name]) => [id, name] as const);
    const body = html`<form method="get" action="/equipe" class="filters">
<p><label for="f-q">Rechercher (nom, e-mail, message, réponses)</label><input type="search" id="f-q" name="q" value="${query.q ?? ''}"></p>
${select(
  'type',
  'Type',
  options(
    LEAD_KINDS.map((k) => k.kind),
    KIND_LABELS,
    query.type,
  ),
  query.type,
)}
${select('statut', 'Statut', options(WORK_STATUSES, WORK_STATUS_LABELS, query.statut), query.statut)}
${select('attribue', 'Attribué à', [html`<option value="personne"${query.attribue === 'personne' ? html` selected` : ''}>Personne</option>`, ...staffOptions.map(([id, name]) => html`<option value="${id}"${query.attribue === id ? html` selected` : ''}>${name}</option>`)], query.attribue)}
${select('canal', 'Canal', options(LEAD_CHANNELS, LEAD_CHANNEL_LABELS, query.canal), query.canal)}
${select('secteur', 'Secteur', options(SECTORS, SECTOR_LABELS, query.secteur), query.secteur)}
<p><label for="f-du">Reçues du</label><input type="date" id="f-du" name="du" value="${query.du ?? ''}"></p>
<p><label for="f-au">au</label><input type="date" id="f-au" name="au" value="${query.au ?? ''}"></p>
<p><label for="f-tri">Ordre</label><select id="f-tri" name="tri"><option value="">Plus récentes d’abord</option><option value="echeance"${order === 'due' ? html` selected` : ''}>Réponse due la première</option></select></p>
<p><button type="submit">Filtrer</button> <a href="/equipe">Tout afficher</a></p>
</form>
<p>Exporter cette sélection : <a href="/equipe/export.csv${queryString(kept, { format: 'excel' })}">CSV pour Excel</a> · <a href="/equipe/export.csv${queryString(kept)}">CSV</a></p>
<form method="post" action="/equipe/prospects/actions" id="bulk">${csrfField(request.csrfToken)}
<input type="hidden" name="suite" value="/equipe${queryString(kept)}">
<p><label for="bulk-action">Pour les prospects cochés</label>
<select id="bulk-action" name="action">${WORK_STATUSES.map((status) => html`<option value="statut:${status}">Statut : ${WORK_STATUS_LABELS[status]}</option>`)}
${staffOptions.map(([id, name]) => html`<option value="attribuer:${id}">Attribuer à ${name}</option>`)}<option value="attribuer:">Retirer l’attribution</option></select>
<button type="submit">Appliquer</button></p>
</form>
${scrollingTable(
  'Prospects',
  html`<table>
<caption>Prospects : ${total}</caption>
<thead><tr><th scope="col">Choix</th><th scope="col">Reçue le</th><th scope="col">Type</th><th scope="col">Nom</th><th scope="col">E-mail</th><th scope="col">Secteur ou service</th><th scope="col">Canal</th><th scope="col">Statut</th><th scope="col">Attribué à</th><th scope="col">Réponse due</th><th scope="col">Livraison</th></tr></thead>
<tbody>${page.entries.map((entry) => row(entry, names, now, context, optedOut, inbound))}</tbody>
</table>`,
)}
${page.next ? html`<p><a href="/equipe${queryString(kept, { apres: page.next })}">Prospects suivants</a></p>` : ''}`;
    return sendWorkspacePage(request, reply, { title: 'Prospects', current: 'prospects', body });
  });

  scope.post('/prospects/actions', async (request, reply) => {
    const staff = request.staff!;
    const ids = formList(request.body, 'ids').slice(0, 500);
    const [verb, value = ''] = formText(request.body, 'action').split(':');
    const by = { id: staff.id, name: staff.name || staff.email };
    // Only what the page offered: a status of the list, an account, or « Retirer l’attribution ».
    const offered =
      verb === 'statut'
        ? WORK_STATUSES.includes(value as WorkStatus)
        : verb === 'attribuer' && (value === '' || (await staffNames(context)).has(value));
    if (!offered) {
      return refusalPage(
        reply,
        400,
        'Formulaire refusé',
        'Ce choix ne fait pas partie de la liste.',
      );
    }
    for (const id of ids) {
      if (verb === 'statut' && WORK_STATUSES.includes(value as WorkStatus)) {
        if (await context.store.work.setStatus(id, value as WorkStatus, by, context.now())) {
          await context.recordStaffAction(staff, 'status-change', `lead:${id}`, value);
        }
      } else if (verb === 'attribuer') {
        if (await context.store.work.assign(id, value || null, by, context.now())) {
          await context.recordStaffAction(staff, 'assign', `lead:${id}`, value || null);
        }
      }
    }
    return reply.redirect(sameOriginPath(formText(request.body, 'suite')) ?? '/equipe', 303);
  });

  scope.get('/export.csv', async (request: FastifyRequest, reply) => {
    const query = request.query as Query;
    const excel = query.format === 'excel';
    const staff = request.staff!;
    // Streamed as read (docs/performance.md, « Exports »): the audit line counts what was written.
    async function* counted() {
      let count = 0;
      for await (const entry of context.store.work.all(filterOf(query))) {
        count += 1;
        yield entry;
      }
      await context.recordStaffAction(
        staff,
        'export',
        null,
        `${count} ${frenchPlural(count, 'prospect', 'prospects')}`,
      );
    }
    const chunks = exportChunks(
      excel ? 'excel' : 'csv',
      counted(),
      await excelContext(context.store, context.config.workspace.businessHours),
    );
    return reply
      .type(`text/csv; charset=utf-8${excel ? '; header=present' : ''}`)
      .header('content-disposition', `attachment; filename="prospects${excel ? '-excel' : ''}.csv"`)
      .send(Readable.from(chunks));
  });
}
