import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { emailOf } from '../../kernel/lead/lead.ts';
import { WORK_STATUSES, type WorkStatus } from './lead-work.ts';
import { spamReasonLabel } from '../../kernel/lead/spam-reason.ts';
import { releaseSpamLead } from './spam-release.ts';
import { html } from '../staff/index.ts';
import { leadInboundSection, unmatchedSection } from '../inbound/index.ts';
import { staffNames } from './inbox-routes.ts';
import { leadPageBody } from './lead-page-view.ts';
import { excerptOf, kindLabel, personName } from './lead-views.ts';
import { frenchCount } from '../../kernel/lead/french-count.ts';
import { formText } from '../staff/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { refusalPage } from '../staff/index.ts';
import { cell, csrfField, parisTime, scrollingTable, sendWorkspacePage } from '../staff/index.ts';
import { renderAnswerSection } from '../answers/index.ts';
import { unmatchedMessageActions } from './unmatched-message-routes.ts';

/**
 * `/equipe/prospects/<id>`: one lead, its history, its delivery
 * (docs/workspace.md, "La fiche d'un prospect").
 */
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
    const body = leadPageBody(
      {
        entry,
        activity,
        steps,
        names,
        others: others.entries,
        optedOutAt: optedOut?.addedAt,
        csrf: csrfField(request.csrfToken),
        answering,
        inbound,
      },
      context,
    );
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
      unmatchedSection(context.store, unmatchedMessageActions(context, request)),
    ]);
    const csrf = csrfField(request.csrfToken);
    const body = html`<p>Retenues par le piège à robots, livrées à personne : « Ce n’est pas du spam » livre celle d’une vraie personne.</p>
${scrollingTable(
  'À vérifier',
  html`<table><caption>À vérifier : ${page.total > 1000 ? 'plus de 1 000 demandes' : frenchCount(page.total, 'demande')}</caption>
<thead><tr><th scope="col">Nom</th><th scope="col">Demande</th><th scope="col">Raison</th><th scope="col">Action</th></tr></thead>
<tbody>${page.entries.map((entry) => html`<tr><th scope="row"><a href="/equipe/prospects/${entry.lead.id}">${personName(entry)}</a><br><small>reçue le ${parisTime(entry.lead.receivedAt)}</small></th>${cell('Demande', html`${kindLabel(entry.lead.kind)}<br><small class="excerpt">${excerptOf(entry)}</small>`)}${cell('Raison', spamReasonLabel(entry.spamReason))}<td><form method="post" action="/equipe/a-verifier/${entry.lead.id}/liberer">${csrf}<button type="submit">Ce n’est pas du spam</button></form></td></tr>`)}</tbody></table>`,
)}
${unmatched}`;
    return sendWorkspacePage(request, reply, { title: 'À vérifier', current: 'a-verifier', body });
  });
}
