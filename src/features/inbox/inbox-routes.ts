import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answerDueAt } from './answer-promise.ts';
import { parseBusinessHours } from './business-hours.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { excelContext, exportChunks } from './lead-export.ts';
import { frenchCount } from '../../kernel/lead/french-count.ts';
import { filterForm, filterOf, orderOf, queryString, viewOf, type Query } from './inbox-filters.ts';
import {
  WORK_STATUSES,
  WORK_STATUS_LABELS,
  type InboxEntry,
  type WorkStatus,
} from './lead-work.ts';
import { html } from '../staff/index.ts';
import { DELIVERY_LABELS, excerptOf, kindLabel, personName, topicOf } from './lead-views.ts';
import { cell, formList, formText } from '../staff/index.ts';
import { inboundMarks } from '../inbound/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { refusalPage, sameOriginPath } from '../staff/index.ts';
import { csrfField, parisTime, scrollingTable, sendWorkspacePage } from '../staff/index.ts';

export async function staffNames(context: WorkspaceContext): Promise<Map<string, string>> {
  const accounts = await context.store.staff.accounts();
  return new Map(accounts.map((account) => [account.id, account.name || account.email]));
}

/** A delivery that needs someone (docs/delivery.md): shown in the list, not only on the lead. */
const TROUBLE = new Set(['failed', 'dead', 'refused']);

/**
 * One lead: a row on a laptop, a card on a phone (docs/workspace.md, « La boîte de réception »):
 * who, what they want and the first words of their message, when the answer is due, the team's
 * status, and any delivery trouble.
 */
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
    : 'personne';
  const id = entry.lead.id;
  const topic = topicOf(entry);
  // docs/inbound.md: a new message from the prospect makes the lead unread again in the list.
  const read = entry.work.readAt && !inbound.unread.has(entry.lead.id);
  return html`<tr${read ? '' : html` class="unread"`}>
<th scope="row"><a href="/equipe/prospects/${id}">${personName(entry)}</a>${entry.work.readAt ? '' : html` <span class="badge">non lu</span>`}${inbound.badges(entry)}<br><small>reçue le ${parisTime(entry.lead.receivedAt)}</small></th>
${cell('Demande', html`${kindLabel(entry.lead.kind)}${topic ? ` · ${topic}` : ''}<br><small class="excerpt">${excerptOf(entry)}</small>`)}
${cell('Réponse due', due ? html`${late ? html`<strong class="badge overdue">En retard</strong> depuis ` : 'avant '}${parisTime(due)}` : '—')}
${cell('Suivi', `${WORK_STATUS_LABELS[entry.work.status]}, attribué à ${assignee}`)}
${cell('Livraison', html`${TROUBLE.has(entry.status) ? html`<strong class="trouble">${DELIVERY_LABELS[entry.status]}</strong>` : DELIVERY_LABELS[entry.status]}${optedOut.has(emailOf(entry.lead)) ? html` <span class="badge">opposition</span>` : ''}`)}
<td class="pick"><input type="checkbox" name="ids" value="${id}" id="sel-${id}" form="bulk"><label for="sel-${id}">Choisir<span class="visually-hidden"> ${personName(entry)}</span></label></td>
</tr>`;
}

/** `/equipe`: the leads, newest first or by answer due, filtered by a GET form (docs/workspace.md). */
export function registerInboxRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  scope.get('/', async (request, reply) => {
    const query = request.query as Query;
    const home = viewOf(query) === 'a-traiter';
    const filter = filterOf(query);
    const [page, names] = await Promise.all([
      context.store.work.page({ ...filter, order: orderOf(query), after: query.apres, limit: 50 }),
      staffNames(context),
    ]);
    // docs/workspace-privacy.md, « Liste d’opposition »: a lead of a listed address is kept, and
    // flagged.
    const [optedOut, inbound] = await Promise.all([
      context.store.optOut.among(page.entries.map((entry) => emailOf(entry.lead))),
      inboundMarks(context.store, page.entries),
    ]);
    const now = context.now();
    const total =
      page.total > 1000 ? 'plus de 1 000 prospects' : frenchCount(page.total, 'prospect');
    const kept = { ...query, apres: undefined };
    const staffOptions = [...names].map(([id, name]) => [id, name] as const);
    const title = home ? 'À traiter' : 'Tous les prospects';
    const body = html`${filterForm(query, staffOptions)}
${scrollingTable(
  title,
  html`<table class="lead-list">
<caption>${title} : ${total}</caption>
<thead><tr><th scope="col">Prospect</th><th scope="col">Demande</th><th scope="col">Réponse due</th><th scope="col">Suivi</th><th scope="col">Livraison</th><th scope="col">Choix</th></tr></thead>
<tbody>${page.entries.map((entry) => row(entry, names, now, context, optedOut, inbound))}</tbody>
</table>`,
)}
${page.next ? html`<p><a href="/equipe${queryString(kept, { apres: page.next })}">Prospects suivants</a></p>` : ''}
<form method="post" action="/equipe/prospects/actions" id="bulk" class="filters-main">${csrfField(request.csrfToken)}
<input type="hidden" name="suite" value="/equipe${queryString(kept)}">
<p><label for="bulk-action">Pour les prospects cochés</label>
<select id="bulk-action" name="action">${WORK_STATUSES.map((status) => html`<option value="statut:${status}">Statut : ${WORK_STATUS_LABELS[status]}</option>`)}
${staffOptions.map(([id, name]) => html`<option value="attribuer:${id}">Attribuer à ${name}</option>`)}<option value="attribuer:">Retirer l’attribution</option></select></p>
<p class="filter-submit"><button type="submit">Appliquer</button></p>
</form>
<p>Exporter cette sélection : <a href="/equipe/export.csv${queryString(kept, { format: 'excel' })}">CSV pour Excel</a> · <a href="/equipe/export.csv${queryString(kept)}">CSV</a></p>`;
    return sendWorkspacePage(request, reply, {
      title,
      current: home ? 'prospects' : 'tous',
      body,
    });
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
      await context.recordStaffAction(staff, 'export', null, frenchCount(count, 'prospect'));
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
