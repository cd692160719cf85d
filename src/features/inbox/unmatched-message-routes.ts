import type { FastifyInstance, FastifyRequest } from 'fastify';
import { emailOf } from '../../kernel/lead/lead.ts';
import type { InboundMessage } from '../inbound/index.ts';
import {
  csrfField,
  formText,
  html,
  parisTime,
  refusalPage,
  type SafeHtml,
} from '../staff/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { kindLabel, personName } from './lead-views.ts';

/** How many leads a search offers to attach a message to: the rest is a narrower search away. */
const CHOICES = 8;

/**
 * docs/inbound.md, « Rattachement »: under each message « À vérifier » holds, a search for the
 * lead it belongs to (a GET form: no script needed, the page comes back with the matches under
 * this message), a button per match to attach it, and « Écarter ».
 */
export function unmatchedMessageActions(context: WorkspaceContext, request: FastifyRequest) {
  const { message: chosen = '', q = '' } = request.query as { message?: string; q?: string };
  const search = q.trim().slice(0, 200);
  const csrf = csrfField(request.csrfToken);
  return async (message: InboundMessage): Promise<SafeHtml> => {
    const searched = chosen === message.id && search !== '';
    const matches = searched
      ? (await context.store.work.page({ search, held: 'also', limit: CHOICES })).entries
      : [];
    const base = `/equipe/a-verifier/messages/${message.id}`;
    return html`<form method="get" action="/equipe/a-verifier#message-${message.id}" class="inline-search">
<input type="hidden" name="message" value="${message.id}">
<label for="q-${message.id}">Rattacher à la demande de (nom ou e-mail)</label>
<input type="search" id="q-${message.id}" name="q" value="${searched ? search : ''}" maxlength="200">
<button type="submit">Chercher</button>
</form>
${searched ? (matches.length ? html`<ul class="choices">${matches.map((entry) => html`<li><form method="post" action="${base}/rattacher">${csrf}<input type="hidden" name="prospect" value="${entry.lead.id}"><button type="submit">Rattacher à ${personName(entry)}</button> <small>${emailOf(entry.lead)}, ${kindLabel(entry.lead.kind).toLowerCase()} reçue le ${parisTime(entry.lead.receivedAt)}</small></form></li>`)}</ul>` : html`<p>Aucune demande ne correspond à « ${search} ».</p>`) : ''}
<form method="post" action="${base}/ecarter">${csrf}<button type="submit">Écarter ce message</button></form>`;
  };
}

/** `POST /equipe/a-verifier/messages/<id>/rattacher` and `/ecarter` (docs/inbound.md). */
export function registerUnmatchedMessageRoutes(
  scope: FastifyInstance,
  context: WorkspaceContext,
): void {
  const gone = (reply: Parameters<typeof refusalPage>[0]) =>
    refusalPage(
      reply,
      404,
      'Message introuvable',
      'Ce message n’attend plus dans « À vérifier » : il a déjà été rattaché ou écarté.',
    );

  scope.post('/a-verifier/messages/:id/rattacher', async (request, reply) => {
    const { id } = request.params as { id: string };
    const leadId = formText(request.body, 'prospect');
    // Only a lead that exists: nothing typed reaches the journal or the trail.
    if (!leadId || !(await context.store.work.find(leadId))) {
      return refusalPage(reply, 404, 'Prospect introuvable', 'Aucun prospect ne porte ce numéro.');
    }
    if (!(await context.store.inbound.attach(id, leadId))) return gone(reply);
    await context.recordStaffAction(request.staff!, 'attach-message', `lead:${leadId}`);
    return reply.redirect(`/equipe/prospects/${encodeURIComponent(leadId)}`, 303);
  });

  scope.post('/a-verifier/messages/:id/ecarter', async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!(await context.store.inbound.dismiss(id))) return gone(reply);
    // A stranger's message leaves nothing behind (docs/inbound.md): the trail keeps no address.
    await context.recordStaffAction(request.staff!, 'dismiss-message', `message:${id}`);
    return reply.redirect('/equipe/a-verifier', 303);
  });
}
