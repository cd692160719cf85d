import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  MANUAL_PRIVACY_CHANNELS,
  MANUAL_PRIVACY_KINDS,
  type PrivacyRequestEntry,
  type PrivacyRequestKind,
} from './privacy-register.ts';
import { answerDeadline, isOverdue, parisDay } from './request-deadline.ts';
import { field, formAddress, formAlert, formDay, formText } from '../staff/index.ts';
import { html } from '../staff/index.ts';
import {
  identityCheckOf,
  outcomeOf,
  PRIVACY_CHANNEL_LABELS,
  PRIVACY_KIND_NAMES,
  privacyStatusLabel,
} from './privacy-labels.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { csrfField, parisTime, scrollingTable, sendWorkspacePage } from '../staff/index.ts';

const frenchDay = (day: string) => day.split('-').reverse().join('/');
const text = (body: unknown, name: string, max = 500) =>
  formText(body, name).trim().slice(0, max) || null;

function select(
  name: string,
  label: string,
  values: readonly string[],
  labels: Record<string, string>,
) {
  return html`<p><label for="${name}">${label}</label><select id="${name}" name="${name}">${values.map((value) => html`<option value="${value}">${labels[value]}</option>`)}</select></p>`;
}

function deadlineCell(entry: PrivacyRequestEntry, now: Date) {
  const deadline = frenchDay(answerDeadline(entry.receivedAt));
  if (entry.answeredAt) return html`${deadline}`;
  return isOverdue(entry, now)
    ? html`<strong class="overdue">En retard</strong> depuis le ${deadline}`
    : html`avant le ${deadline}`;
}

/**
 * docs/workspace-privacy.md, « Le registre des demandes RGPD »: the requests received through the
 * site, the API and MCP (privacy-service.ts) and those the team enters by hand, each with its
 * one-month deadline (RGPD art. 12.3) and overdue ones flagged.
 */
export function registerRegisterRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  const register = context.store.privacyRequests;

  async function registerPage(request: FastifyRequest, reply: FastifyReply, error?: string) {
    const now = context.now();
    const entries = await register.list();
    const late = entries.filter((entry) => isOverdue(entry, now)).length;
    const rows = entries.map(
      (entry) =>
        html`<tr><td data-label="Reçue le">${parisTime(entry.receivedAt)}</td><td data-label="Canal">${PRIVACY_CHANNEL_LABELS[entry.channel] ?? entry.channel}</td><th scope="row"><a href="/equipe/personnes/registre/${entry.id}">${PRIVACY_KIND_NAMES[entry.kind] ?? entry.kind}</a></th><td data-label="État">${privacyStatusLabel(entry, now)}</td><td data-label="Vérification d’identité">${identityCheckOf(entry)}</td><td data-label="Traitée par">${entry.handledBy ?? '—'}</td><td data-label="Suite donnée">${outcomeOf(entry)}</td><td data-label="Répondue le">${entry.answeredAt ? frenchDay(parisDay(entry.answeredAt)) : '—'}</td><td data-label="Échéance">${deadlineCell(entry, now)}</td></tr>`,
    );
    const body = html`<p>Chaque demande sur des données personnelles, reçue par le site, l’API ou un assistant IA, ou saisie ici : la réponse est due dans le mois (RGPD art. 12.3). Une demande arrivée par le site attend d’abord que la personne suive le lien envoyé à son adresse.</p>
${scrollingTable(
  'Registre des demandes RGPD',
  html`<table><caption>Registre des demandes RGPD : ${entries.length}${late ? html`, dont <strong class="overdue">${late} en retard</strong>` : ''}</caption><thead><tr><th scope="col">Reçue le</th><th scope="col">Canal</th><th scope="col">Demande</th><th scope="col">État</th><th scope="col">Vérification d’identité</th><th scope="col">Traitée par</th><th scope="col">Suite donnée</th><th scope="col">Répondue le</th><th scope="col">Échéance</th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="9">Aucune demande.</td></tr>`}</tbody></table>`,
)}
<h2>Saisir une demande reçue autrement</h2>
${formAlert(error)}
<form method="post" action="/equipe/personnes/registre" class="narrow">${csrfField(request.csrfToken)}
<p><label for="recue">Reçue le</label><input type="date" id="recue" name="recue" required value="${parisDay(now)}"></p>
${select('canal', 'Canal', MANUAL_PRIVACY_CHANNELS, PRIVACY_CHANNEL_LABELS)}
${select('type', 'Demande', MANUAL_PRIVACY_KINDS, PRIVACY_KIND_NAMES)}
${field({ name: 'email', label: 'Adresse e-mail de la personne', type: 'email', autocomplete: 'off', required: true, maxlength: 254 })}
${field({ name: 'verification', label: 'Vérification d’identité', help: 'Par exemple : réponse reçue depuis l’adresse concernée.', maxlength: 500 })}
${field({ name: 'suite', label: 'Suite donnée', maxlength: 500 })}
<p><label for="repondue">Répondue le (vide si pas encore)</label><input type="date" id="repondue" name="repondue"></p>
<p><label for="note">Note</label><textarea id="note" name="note" rows="3" maxlength="2000"></textarea></p>
<p><button type="submit">Enregistrer la demande</button></p></form>`;
    return sendWorkspacePage(request, reply, {
      title: 'Registre des demandes RGPD',
      current: 'personnes',
      body,
      status: error ? 422 : 200,
    });
  }

  scope.get('/personnes/registre', async (request, reply) => registerPage(request, reply));

  scope.post('/personnes/registre', async (request, reply) => {
    const body = request.body;
    const address = formAddress(body);
    const receivedAt = formDay(body, 'recue');
    const channel = formText(body, 'canal') as (typeof MANUAL_PRIVACY_CHANNELS)[number];
    const kind = formText(body, 'type') as PrivacyRequestKind;
    if (
      !address ||
      !receivedAt ||
      receivedAt > context.now() ||
      !MANUAL_PRIVACY_CHANNELS.includes(channel) ||
      !MANUAL_PRIVACY_KINDS.includes(kind)
    ) {
      return registerPage(
        request,
        reply,
        'Indiquez une adresse e-mail complète et une date de réception passée.',
      );
    }
    const staff = request.staff!;
    const answeredAt = formDay(body, 'repondue') ?? null;
    const id = randomUUID();
    await register.add({
      id,
      receivedAt,
      channel,
      kind,
      address,
      reference: await context.store.people.reference(address),
      status: answeredAt ? 'done' : 'confirmed',
      confirmedAt: null,
      handledBy: staff.name || staff.email,
      answeredAt,
      note: text(body, 'note', 2000),
      identityCheck: text(body, 'verification'),
      outcome: text(body, 'suite'),
    });
    await context.recordStaffAction(staff, 'privacy-request-add', `privacy-request:${id}`, kind);
    return reply.redirect(`/equipe/personnes/registre/${id}`, 303);
  });

  scope.get('/personnes/registre/:id', async (request, reply) => {
    const entry = await register.find((request.params as { id: string }).id);
    if (!entry) {
      return sendWorkspacePage(request, reply, {
        title: 'Demande introuvable',
        current: 'personnes',
        status: 404,
        body: html`<p><a href="/equipe/personnes/registre">Retour au registre</a></p>`,
      });
    }
    const now = context.now();
    const body = html`<dl>
<dt>Reçue le</dt><dd>${parisTime(entry.receivedAt)} (${PRIVACY_CHANNEL_LABELS[entry.channel] ?? entry.channel})</dd>
<dt>État</dt><dd>${privacyStatusLabel(entry, now)}</dd>
<dt>Échéance (un mois, RGPD art. 12.3)</dt><dd>${deadlineCell(entry, now)}</dd>
<dt>Personne</dt><dd>${entry.address ? html`<a href="/equipe/personnes/registre/${entry.id}/personne">Voir ce qui est gardé de cette adresse</a>` : 'adresse effacée (seule son empreinte reste)'}</dd>
<dt>Traitée par</dt><dd>${entry.handledBy ?? '—'}</dd>
<dt>Note</dt><dd>${entry.note ?? '—'}</dd>
</dl>
<h2>Suivi</h2>
<form method="post" action="/equipe/personnes/registre/${entry.id}" class="narrow">${csrfField(request.csrfToken)}
${field({ name: 'verification', label: 'Vérification d’identité', value: identityCheckOf(entry) === '—' ? '' : identityCheckOf(entry), maxlength: 500 })}
${field({ name: 'suite', label: 'Suite donnée', value: outcomeOf(entry) === '—' ? '' : outcomeOf(entry), maxlength: 500 })}
<p><label for="repondue">Répondue le (vide si pas encore)</label><input type="date" id="repondue" name="repondue" value="${entry.answeredAt ? parisDay(entry.answeredAt) : ''}"></p>
<p><button type="submit">Enregistrer</button></p></form>
<p><a href="/equipe/personnes/registre">Retour au registre</a></p>`;
    return sendWorkspacePage(request, reply, {
      title: `${PRIVACY_KIND_NAMES[entry.kind] ?? entry.kind} : demande RGPD`,
      current: 'personnes',
      body,
    });
  });

  scope.post('/personnes/registre/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const entry = await register.find(id);
    if (entry) {
      const staff = request.staff!;
      const answeredAt = formDay(request.body, 'repondue') ?? null;
      await register.update(id, {
        identityCheck: text(request.body, 'verification'),
        outcome: text(request.body, 'suite'),
        answeredAt,
        handledBy: staff.name || staff.email,
        // Answered is done; a date taken back reopens it. A link still awaited stays awaited.
        ...(answeredAt ? { status: 'done' } : entry.status === 'done' && { status: 'confirmed' }),
      });
      await context.recordStaffAction(staff, 'privacy-request-update', `privacy-request:${id}`);
    }
    return reply.redirect(`/equipe/personnes/registre/${encodeURIComponent(id)}`, 303);
  });
}
