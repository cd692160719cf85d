import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONFIRMATION_DESTINATION } from '../../kernel/lead/destination.ts';
import { emailOf, type Lead } from '../../kernel/lead/lead.ts';
import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import { formText, refusalPage, type SafeHtml, type WorkspaceContext } from '../staff/index.ts';
import { answerSection } from './answer-section.ts';
import { ANSWER_DESTINATION, type AnswerChannel } from './answers.ts';

/** RFC 5322 3.6.4: what a Message-ID looks like, as the mail providers keep it in a step's detail. */
const MESSAGE_ID = /^<[^<>\s]+@[^<>\s]+>$/;

/** Only requests that promised an answer are answered: the kinds confirmed to their sender (spec 1). */
const answerable = (lead: Lead) => leadKindOf(lead.kind).confirmsToSender;

/**
 * Why no e-mail may be sent to this lead now, in French; undefined when one may. docs/workspace.md,
 * « Répondre »: the opt-out list is honoured (docs/consent.md), and one e-mail answer at a time
 * leaves a lead, so a double click or a second tab never sends the same answer twice.
 */
async function emailRefusal(context: WorkspaceContext, lead: Lead): Promise<string | undefined> {
  if (!context.dispatcher.destinations.some(({ name }) => name === ANSWER_DESTINATION)) {
    return 'Le prestataire d’envoi configuré n’envoie pas les réponses : répondez par téléphone.';
  }
  if (await context.store.optOut.find(emailOf(lead))) {
    return 'Cette adresse est dans la liste d’opposition : aucun e-mail ne lui est envoyé. Appelez plutôt.';
  }
  if ((await context.store.answers.unsent(lead.id)).length > 0) {
    return 'Une réponse à cette personne attend encore d’être envoyée (voir « Livraison ») : la suivante pourra partir ensuite.';
  }
  return undefined;
}

/** The lead page's « Répondre » section; nothing for a lead that asked no answer (a sign-up). */
export async function renderAnswerSection(
  context: WorkspaceContext,
  request: FastifyRequest,
  lead: Lead,
): Promise<SafeHtml | ''> {
  if (!answerable(lead)) return '';
  const [answers, refusal] = await Promise.all([
    context.store.answers.list(lead.id),
    emailRefusal(context, lead),
  ]);
  return answerSection(
    request,
    lead,
    answers,
    refusal === undefined ? { ok: true } : { ok: false, why: refusal },
  );
}

/**
 * The Message-ID of the confirmation the person received, which the answer threads under
 * (docs/emails.md): the mail providers keep it as the confirmation step's detail.
 */
async function confirmationMessageId(
  context: WorkspaceContext,
  leadId: string,
): Promise<string | null> {
  const steps = await context.store.deliveries.steps(leadId);
  const detail = steps.find(
    (step) => step.destination === CONFIRMATION_DESTINATION && step.status === 'done',
  )?.detail;
  return detail && MESSAGE_ID.test(detail) ? detail : null;
}

const AUDIT_ACTIONS = { email: 'answer', phone: 'call', mailbox: 'mailbox-answer' } as const;

type Refusal = { refused: true; status: number; title: string; text: string };

const INCOMPLETE: Refusal = {
  refused: true,
  status: 400,
  title: 'Réponse non envoyée',
  text: 'Le message (et, pour un e-mail, l’objet) est obligatoire.',
};

/** `POST /equipe/prospects/<id>/repondre` and `/appel` (docs/workspace.md, « Répondre »). */
export function registerAnswerRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  async function answer(
    request: FastifyRequest,
    channel: AnswerChannel,
  ): Promise<Refusal | { refused: false; id: string }> {
    const { id } = request.params as { id: string };
    const entry = await context.store.work.find(id);
    if (!entry || !answerable(entry.lead)) {
      return {
        refused: true,
        status: 404,
        title: 'Prospect introuvable',
        text: 'Aucun prospect à qui répondre ne porte ce numéro.',
      };
    }
    const staff = request.staff!;
    const by = { id: staff.id, name: staff.name || staff.email };
    const at = context.now();
    const body = formText(request.body, channel === 'email' ? 'message' : 'note').trim();
    const subject = formText(request.body, 'objet').trim().slice(0, 200);
    if (!body || (channel === 'email' && !subject)) {
      return INCOMPLETE;
    }
    let inReplyTo: string | null = null;
    let provider = '';
    if (channel === 'email') {
      const refusal = await emailRefusal(context, entry.lead);
      if (refusal)
        return { refused: true, status: 409, title: 'Réponse non envoyée', text: refusal };
      inReplyTo = await confirmationMessageId(context, id);
      provider = context.dispatcher.destinations.find(
        ({ name }) => name === ANSWER_DESTINATION,
      )!.provider;
    }
    await context.store.answers.record({
      leadId: id,
      receivedAt: entry.lead.receivedAt,
      at,
      by,
      channel,
      subject: channel === 'email' ? subject : null,
      body: body.slice(0, channel === 'email' ? 20_000 : 5000),
      inReplyTo,
      provider,
    });
    // docs/workspace.md: the answer promise is kept at the first answer; the lead leaves « nouveau ».
    if (entry.work.status === 'nouveau') await context.store.work.setStatus(id, 'en-cours', by, at);
    await context.recordStaffAction(staff, AUDIT_ACTIONS[channel], `lead:${id}`);
    if (channel === 'email') {
      // Sent now, as « Relancer » does; a failure is retried by the background loop.
      await context.dispatcher.deliverLead(id, {
        only: (destination) => destination.name === ANSWER_DESTINATION,
      });
    }
    return { refused: false, id };
  }

  // `/appel` records an answer given outside the workspace: a call, or with `moyen=messagerie` an
  // e-mail written from the staff member's own mail client.
  const recorded = (request: FastifyRequest): AnswerChannel =>
    formText(request.body, 'moyen') === 'messagerie' ? 'mailbox' : 'phone';
  for (const [path, channelOf] of [
    ['repondre', () => 'email' as const],
    ['appel', recorded],
  ] as const) {
    scope.post(`/prospects/:id/${path}`, async (request, reply) => {
      const result = await answer(request, channelOf(request));
      if (result.refused) return refusalPage(reply, result.status, result.title, result.text);
      return reply.redirect(`/equipe/prospects/${encodeURIComponent(result.id)}#repondre`, 303);
    });
  }
}
