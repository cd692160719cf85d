import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answerDueAt } from './answer-promise.ts';
import { parseBusinessHours } from './business-hours.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { WORK_STATUSES, WORK_STATUS_LABELS, type WorkStatus } from './lead-work.ts';
import { spamReasonLabel } from '../../kernel/lead/spam-reason.ts';
import { releaseSpamLead } from './spam-release.ts';
import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import { isOneLineField, mailtoHref, oneLine } from '../../kernel/schemas/one-line.ts';
import { findQuestion } from '../../kernel/schemas/questionnaires.ts';
import { requestPhone } from '../../kernel/schemas/phone-number.ts';
import type { Sector } from '../../kernel/schemas/sectors.ts';
import { html } from '../staff/index.ts';
import { leadInboundSection, unmatchedSection } from '../inbound/index.ts';
import { staffNames } from './inbox-routes.ts';
import { channelLabel, DELIVERY_LABELS, fieldLabel, kindLabel, personName } from './lead-views.ts';
import { formText } from '../staff/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { refusalPage } from '../staff/index.ts';
import { csrfField, parisTime, scrollingTable, sendWorkspacePage } from '../staff/index.ts';
import { renderAnswerSection } from '../answers/index.ts';

const STEP_LABELS: Record<string, string> = {
  pending: 'En attente',
  retrying: 'En échec, nouvel essai prévu',
  done: 'Livrée',
  refused: 'Refusée',
  dead: 'Abandonnée',
};

/** `/equipe/prospects/<id>`: one lead, its history, its delivery (docs/workspace.md, "La fiche"). */
export function registerLeadPageRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendWorkspacePage(request, reply, {
      title: 'Prospect introuvable',
      status: 404,
      body: html`<p>Aucun prospect ne porte ce numéro : il a peut-être été effacé.</p>`,
    });

  scope.get('/prospects/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const entry = await context.store.work.find(id);
    if (!entry) return notFound(request, reply);
    const staff = request.staff!;
    await context.store.work.markRead(
      id,
      { id: staff.id, name: staff.name || staff.email },
      context.now(),
    );
    await context.recordStaffAction(staff, 'view-lead', `lead:${id}`);
    const [activity, steps, names, others, optedOut, answering, inbound] = await Promise.all([
      context.store.work.activity(id),
      context.store.deliveries.steps(id),
      staffNames(context),
      context.store.work.page({ search: emailOf(entry.lead), limit: 20 }),
      context.store.optOut.find(emailOf(entry.lead)),
      renderAnswerSection(context, request, entry.lead),
      // docs/inbound.md: the prospect's messages (read by this opening) and its address's flag.
      leadInboundSection(context.store, entry, staff.name || staff.email, context.now()),
    ]);
    const data = entry.lead.data as Record<string, unknown>;
    const fields = Object.entries(data).filter(
      ([name]) => name !== 'formData' && name !== 'consent',
    );
    const properties = leadKindOf(entry.lead.kind).schema.properties as Record<
      string,
      { maxLength?: number }
    >;
    const schemaOf = (name: string) => properties[name];
    const answers = (data.formData ?? {}) as Record<string, string>;
    // docs/api-decisions.md, "Phone numbers": shown as read in France, dialled in E.164.
    const kindFields = leadKindOf(entry.lead.kind).fields;
    const phone = requestPhone(data, kindFields);
    const sector = data.sector as Sector | undefined;
    const due = answerDueAt(entry, parseBusinessHours(context.config.workspace.businessHours));
    const nameOf = (staffId: string | null) =>
      staffId ? (names.get(staffId) ?? 'Compte supprimé') : 'personne';
    const csrf = csrfField(request.csrfToken);
    const email = emailOf(entry.lead);
    const body = html`<p>${kindLabel(entry.lead.kind)} reçue le ${parisTime(entry.lead.receivedAt)} · ${channelLabel(entry)} · livraison : ${DELIVERY_LABELS[entry.status]}${due ? html` · réponse due avant ${parisTime(due)}${due <= context.now() ? html` <strong class="overdue">(en retard)</strong>` : ''}` : ''}</p>
${optedOut ? html`<p class="notice">Adresse dans la liste d’opposition depuis le ${parisTime(optedOut.addedAt)} : ses demandes sont gardées ici mais transmises à personne.</p>` : ''}
${inbound}
<p>${answering ? html`<a class="button" href="#repondre">Répondre</a> ` : ''}${mailtoHref(email) ? html`<a href="${mailtoHref(email)}">Écrire depuis ma messagerie</a>` : ''} <a href="/equipe/prospects/${id}/personne">Tout ce qui est gardé de cette personne</a></p>
<h2>Ce que la personne a envoyé</h2>
<dl>${fields.map(([name, value]) => html`<dt>${fieldLabel(entry.lead.kind, name)}</dt><dd>${name === kindFields.phone && phone ? (phone.dial ? html`<a href="tel:${phone.dial}">${oneLine(phone.display)}</a>` : oneLine(phone.display)) : isOneLineField(schemaOf(name)) ? oneLine(String(value)) : String(value)}</dd>`)}</dl>
${Object.keys(answers).length ? html`<h2>Réponses au questionnaire</h2><dl>${Object.entries(answers).map(([question, answer]) => html`<dt>${question}${findQuestion(sector, question) ? '' : html` <em>(question inconnue du questionnaire)</em>`}</dt><dd>${answer}</dd>`)}</dl>` : ''}
<h2>Consentement</h2>
${entry.lead.consent ? html`<p>Version ${entry.lead.consent.version}, donné le ${parisTime(entry.lead.consent.givenAt)} (canal ${entry.lead.consent.channel}${entry.lead.consent.page ? html`, page ${entry.lead.consent.page}` : ''}${entry.lead.consent.network ? html`, réseau ${entry.lead.consent.network}` : ''}).</p>` : html`<p>Reçue avant l’enregistrement des consentements.</p>`}
${answering}
<h2>Suivi</h2>
<form method="post" action="/equipe/prospects/${id}/suivi">${csrf}
<p><label for="statut">Statut</label><select id="statut" name="statut">${WORK_STATUSES.map((status) => html`<option value="${status}"${status === entry.work.status ? html` selected` : ''}>${WORK_STATUS_LABELS[status]}</option>`)}</select></p>
<p><label for="attribue">Attribué à</label><select id="attribue" name="attribue"><option value="">Personne</option>${[...names].map(([staffId, name]) => html`<option value="${staffId}"${staffId === entry.work.assignee ? html` selected` : ''}>${name}</option>`)}</select></p>
<p><button type="submit">Enregistrer</button></p></form>
<form method="post" action="/equipe/prospects/${id}/note">${csrf}
<p><label for="note">Note interne</label><textarea id="note" name="note" rows="3" maxlength="5000" required></textarea></p>
<p><button type="submit">Ajouter la note</button></p></form>
<h2>Historique</h2>
${activity.length ? html`<ul>${activity.map((line) => html`<li>${parisTime(line.at)}, ${line.by.name} : ${line.kind === 'note' ? html`note « ${line.value ?? ''} »` : line.kind === 'status' ? html`statut ${WORK_STATUS_LABELS[line.previous as WorkStatus] ?? line.previous} → ${WORK_STATUS_LABELS[line.value as WorkStatus] ?? line.value}` : html`attribution ${nameOf(line.previous)} → ${nameOf(line.value)}`}</li>`)}</ul>` : html`<p>Rien pour l’instant.</p>`}
<h2>Livraison</h2>
${steps.length ? scrollingTable('Étapes de livraison', html`<table><caption>Étapes de livraison</caption><thead><tr><th scope="col">Destination</th><th scope="col">État</th><th scope="col">Essais</th><th scope="col">Réponse du prestataire</th><th scope="col">Action</th></tr></thead><tbody>${steps.map((step) => html`<tr><th scope="row">${step.destination} (${step.provider})</th><td>${STEP_LABELS[step.status] ?? step.status}</td><td>${step.attempts}</td><td>${step.detail ?? step.lastError ?? ''}</td><td>${['retrying', 'dead', 'refused'].includes(step.status) ? html`<form method="post" action="/equipe/prospects/${id}/relancer">${csrf}<input type="hidden" name="destination" value="${step.destination}"><button type="submit">Relancer</button></form>` : ''}</td></tr>`)}</tbody></table>`) : html`<p>Aucune étape de livraison${entry.status === 'spam' ? ` : cette demande attend dans « À vérifier » (${spamReasonLabel(entry.spamReason)})` : ''}.</p>`}
<h2>Ses autres demandes</h2>
${others.entries.filter((other) => other.lead.id !== id).length ? html`<ul>${others.entries.filter((other) => other.lead.id !== id).map((other) => html`<li><a href="/equipe/prospects/${other.lead.id}">${kindLabel(other.lead.kind)} du ${parisTime(other.lead.receivedAt)}</a></li>`)}</ul>` : html`<p>Aucune autre.</p>`}`;
    return sendWorkspacePage(request, reply, {
      title: personName(entry),
      current: 'prospects',
      body,
    });
  });

  scope.post('/prospects/:id/suivi', async (request, reply) => {
    const { id } = request.params as { id: string };
    const staff = request.staff!;
    const by = { id: staff.id, name: staff.name || staff.email };
    const status = formText(request.body, 'statut') as WorkStatus;
    const before = await context.store.work.find(id);
    if (!before) return notFound(request, reply);
    const assignee = formText(request.body, 'attribue') || null;
    // Only what the page offered: a status of the list, an account or « Personne ».
    if (
      !WORK_STATUSES.includes(status) ||
      (assignee !== null && !(await staffNames(context)).has(assignee))
    ) {
      return refusalPage(
        reply,
        400,
        'Formulaire refusé',
        'Ce choix ne fait pas partie de la liste.',
      );
    }
    if (status !== before.work.status) {
      await context.store.work.setStatus(id, status, by, context.now());
      await context.recordStaffAction(staff, 'status-change', `lead:${id}`, status);
    }
    if (assignee !== before.work.assignee) {
      await context.store.work.assign(id, assignee, by, context.now());
      await context.recordStaffAction(staff, 'assign', `lead:${id}`, assignee);
    }
    return reply.redirect(`/equipe/prospects/${encodeURIComponent(id)}`, 303);
  });

  scope.post('/prospects/:id/note', async (request, reply) => {
    const { id } = request.params as { id: string };
    const staff = request.staff!;
    const text = formText(request.body, 'note').trim().slice(0, 5000);
    if (!(await context.store.work.find(id))) return notFound(request, reply);
    if (
      text &&
      (await context.store.work.addNote(
        id,
        text,
        { id: staff.id, name: staff.name || staff.email },
        context.now(),
      ))
    ) {
      await context.recordStaffAction(staff, 'note', `lead:${id}`);
    }
    return reply.redirect(`/equipe/prospects/${encodeURIComponent(id)}`, 303);
  });

  // The same domain code as `leads replay --destination` (docs/operations.md): a step done is never sent again.
  scope.post('/prospects/:id/relancer', async (request, reply) => {
    const { id } = request.params as { id: string };
    const destination = formText(request.body, 'destination');
    // A step the page offered to replay, of a lead that exists: nothing typed reaches the trail.
    const steps = (await context.store.work.find(id))
      ? await context.store.deliveries.steps(id)
      : [];
    if (!steps.some((step) => step.destination === destination)) return notFound(request, reply);
    await context.recordStaffAction(request.staff!, 'replay', `lead:${id}`, destination);
    await context.dispatcher.deliverLead(id, {
      only: (candidate) => candidate.name === destination,
    });
    return reply.redirect(`/equipe/prospects/${encodeURIComponent(id)}`, 303);
  });

  // « Ce n'est pas du spam »: the same domain code as `leads release` (docs/operations.md).
  scope.post('/a-verifier/:id/liberer', async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!(await context.store.work.find(id))) return notFound(request, reply);
    const release = await releaseSpamLead(id, {
      store: context.store,
      destinations: context.dispatcher.destinations,
      newsletter: {
        doubleOptIn: context.config.newsletterDoubleOptIn,
        journal: context.store.newsletter,
      },
      now: context.now(),
    });
    if (release.released) {
      await context.recordStaffAction(request.staff!, 'release', `lead:${id}`);
      context.dispatcher.wake();
    }
    return reply.redirect(`/equipe/prospects/${encodeURIComponent(id)}`, 303);
  });

  scope.get('/a-verifier', async (request, reply) => {
    const [page, unmatched] = await Promise.all([
      context.store.work.page({ held: true, limit: 100 }),
      unmatchedSection(context.store),
    ]);
    const csrf = csrfField(request.csrfToken);
    const body = html`<p>Ces demandes ont été retenues par le piège à robots du site : elles n’ont été livrées à personne. Si l’une vient d’une vraie personne, « Ce n’est pas du spam » la livre normalement.</p>
${scrollingTable(
  'À vérifier',
  html`<table><caption>À vérifier : ${page.total > 1000 ? 'plus de 1 000' : page.total}</caption>
<thead><tr><th scope="col">Reçue le</th><th scope="col">Type</th><th scope="col">Nom</th><th scope="col">Raison</th><th scope="col">Action</th></tr></thead>
<tbody>${page.entries.map((entry) => html`<tr><td>${parisTime(entry.lead.receivedAt)}</td><td>${kindLabel(entry.lead.kind)}</td><th scope="row"><a href="/equipe/prospects/${entry.lead.id}">${personName(entry)}</a></th><td>${spamReasonLabel(entry.spamReason)}</td><td><form method="post" action="/equipe/a-verifier/${entry.lead.id}/liberer">${csrf}<button type="submit">Ce n’est pas du spam</button></form></td></tr>`)}</tbody></table>`,
)}
${unmatched}`;
    return sendWorkspacePage(request, reply, { title: 'À vérifier', current: 'a-verifier', body });
  });
}
