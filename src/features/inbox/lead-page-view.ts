import { answerDueAt } from './answer-promise.ts';
import { parseBusinessHours } from './business-hours.ts';
import { destinationLabel } from '../delivery/index.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import type { DeliveryStep } from '../../kernel/lead/deliveries.ts';
import { frenchCount } from '../../kernel/lead/french-count.ts';
import { spamReasonLabel } from '../../kernel/lead/spam-reason.ts';
import { CHANNEL_LABELS, fieldLabel, sectorLabel } from '../../kernel/schemas/field-labels.ts';
import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import { isOneLineField, mailtoHref, oneLine } from '../../kernel/schemas/one-line.ts';
import { requestPhone } from '../../kernel/schemas/phone-number.ts';
import { findQuestion } from '../../kernel/schemas/questionnaires.ts';
import type { Sector } from '../../kernel/schemas/sectors.ts';
import { WORK_STATUSES, WORK_STATUS_LABELS, type Activity, type InboxEntry } from './lead-work.ts';
import type { WorkStatus } from './lead-work.ts';
import { channelLabel, DELIVERY_LABELS, kindLabel, topicOf } from './lead-views.ts';
import { html, parisTime, type HtmlValue, type SafeHtml } from '../staff/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';

const STEP_LABELS: Record<string, string> = {
  pending: 'En attente',
  retrying: 'En échec, nouvel essai prévu',
  done: 'Livrée',
  refused: 'Refusée',
  dead: 'Abandonnée',
};

/**
 * What the lead page shows (docs/workspace.md, « La fiche d'un prospect »), read by
 * lead-page-routes.ts.
 */
export interface LeadPageFacts {
  entry: InboxEntry;
  activity: Activity[];
  steps: DeliveryStep[];
  names: Map<string, string>;
  others: InboxEntry[];
  optedOutAt: Date | undefined;
  csrf: SafeHtml;
  /** The composer and the answers given (docs/workspace.md, « Répondre »); '' when none applies. */
  answering: HtmlValue;
  /** The prospect's messages and its address's flag (docs/inbound.md). */
  inbound: HtmlValue;
}

/**
 * Who, what they want, when the answer is due, status and assignee, then « Répondre » and
 * « Appeler » (`tel:` in E.164, docs/api-decisions.md "Phone numbers"): all in the first screen.
 */
function factsSection(
  { entry, names, csrf, steps, answering }: LeadPageFacts,
  context: WorkspaceContext,
) {
  const id = entry.lead.id;
  const due = answerDueAt(entry, parseBusinessHours(context.config.workspace.businessHours));
  const phone = requestPhone(entry.lead.data, leadKindOf(entry.lead.kind).fields);
  const reply = mailtoHref(emailOf(entry.lead));
  const topic = topicOf(entry);
  const trouble = steps.some((step) => ['retrying', 'dead', 'refused'].includes(step.status));
  return html`<section class="lead-facts" aria-label="L’essentiel">
<p>${kindLabel(entry.lead.kind)}${topic ? ` · ${topic}` : ''}<br><small>reçue le ${parisTime(entry.lead.receivedAt)} · ${channelLabel(entry)}</small></p>
${due ? html`<p>Réponse due ${due <= context.now() ? html`<strong class="badge overdue">En retard</strong> depuis` : 'avant'} ${parisTime(due)}</p>` : ''}
${trouble ? html`<p><strong class="trouble">Livraison : ${DELIVERY_LABELS[entry.status]}</strong> · <a href="#livraison">Voir et relancer</a></p>` : ''}
<p class="actions">${answering ? html`<a class="button" href="#repondre">Répondre</a>` : ''}${reply ? html`<a ${answering ? '' : html`class="button" `}href="${reply}">${answering ? 'Écrire depuis ma messagerie' : 'Répondre'}</a>` : ''}${phone?.dial ? html`<a class="button" href="tel:${phone.dial}">Appeler le ${oneLine(phone.display)}</a>` : ''}</p>
<form method="post" action="/equipe/prospects/${id}/suivi" class="follow-up">${csrf}
<p><label for="statut">Statut</label><select id="statut" name="statut">${WORK_STATUSES.map((status) => html`<option value="${status}"${status === entry.work.status ? html` selected` : ''}>${WORK_STATUS_LABELS[status]}</option>`)}</select></p>
<p><label for="attribue">Attribué à</label><select id="attribue" name="attribue"><option value="">Personne</option>${[...names].map(([staffId, name]) => html`<option value="${staffId}"${staffId === entry.work.assignee ? html` selected` : ''}>${name}</option>`)}</select></p>
<p class="filter-submit"><button type="submit">Enregistrer</button></p></form>
</section>`;
}

/** What the person sent, in the schemas' French labels (src/kernel/schemas/field-labels.ts). */
function messageSection({ entry, optedOutAt }: LeadPageFacts): SafeHtml {
  const kind = leadKindOf(entry.lead.kind);
  const data = entry.lead.data as Record<string, unknown>;
  const phone = requestPhone(data, kind.fields);
  const hidden = new Set([kind.questionnaire?.answers, kind.fields.phoneCountryCode, 'consent']);
  const properties = kind.schema.properties as Record<
    string,
    { maxLength?: number; 'x-choices'?: unknown }
  >;
  const valueOf = (name: string, value: unknown): HtmlValue => {
    if (name === kind.fields.phone && phone) {
      return phone.dial
        ? html`<a href="tel:${phone.dial}">${oneLine(phone.display)}</a>`
        : oneLine(phone.display);
    }
    if (name === kind.questionnaire?.sector) return sectorLabel(String(value));
    // A list of choices (src/kernel/schemas/fields.ts) reads « Attirer, Convertir », as written.
    if (properties[name]?.['x-choices']) return String(value).split(/ *, */).join(', ');
    return isOneLineField(properties[name]) ? oneLine(String(value)) : String(value);
  };
  const sector = kind.questionnaire ? (data[kind.questionnaire.sector] as Sector) : undefined;
  const answers = (kind.questionnaire ? (data[kind.questionnaire.answers] ?? {}) : {}) as Record<
    string,
    string
  >;
  const consent = entry.lead.consent;
  return html`<section aria-labelledby="demande"><h2 id="demande">Ce que la personne a envoyé</h2>
${optedOutAt ? html`<p class="notice">Adresse dans la liste d’opposition depuis le ${parisTime(optedOutAt)} : ses demandes sont gardées ici mais transmises à personne.</p>` : ''}
<dl>${Object.entries(data)
    .filter(([name]) => !hidden.has(name))
    .map(
      ([name, value]) => html`<dt>${fieldLabel(kind, name)}</dt><dd>${valueOf(name, value)}</dd>`,
    )}</dl>
${Object.keys(answers).length ? html`<h3>Réponses au questionnaire</h3><dl>${Object.entries(answers).map(([question, answer]) => html`<dt>${question}${findQuestion(sector, question) ? '' : html` <em>(question inconnue du questionnaire)</em>`}</dt><dd>${answer}</dd>`)}</dl>` : ''}
<h3>Consentement</h3>
${consent ? html`<p>Version ${consent.version}, donné le ${parisTime(consent.givenAt)} (${CHANNEL_LABELS[consent.channel]}${consent.page ? html`, page ${consent.page}` : ''}${consent.network ? html`, réseau ${consent.network}` : ''}).</p>` : html`<p>Reçue avant l’enregistrement des consentements.</p>`}
</section>`;
}

/** Notes and changes, oldest first, under the form that adds a note. */
function historySection({ entry, activity, names, csrf }: LeadPageFacts): SafeHtml {
  const nameOf = (staffId: string | null) =>
    staffId ? (names.get(staffId) ?? 'Compte supprimé') : 'personne';
  const statusOf = (status: string | null) =>
    WORK_STATUS_LABELS[status as WorkStatus] ?? status ?? '';
  return html`<section aria-labelledby="historique"><h2 id="historique">Historique</h2>
<form method="post" action="/equipe/prospects/${entry.lead.id}/note">${csrf}
<p><label for="note">Note interne</label><textarea id="note" name="note" rows="3" maxlength="5000" required></textarea></p>
<p><button type="submit">Ajouter la note</button></p></form>
${activity.length ? html`<ul>${activity.map((line) => html`<li>${parisTime(line.at)}, ${line.by.name} : ${line.kind === 'note' ? html`note « ${line.value ?? ''} »` : line.kind === 'status' ? html`statut ${statusOf(line.previous)} → ${statusOf(line.value)}` : html`attribution ${nameOf(line.previous)} → ${nameOf(line.value)}`}</li>`)}</ul>` : html`<p>Rien pour l’instant.</p>`}
</section>`;
}

/**
 * Each destination in the team's words with « Relancer » where it failed; the journal's names, the
 * provider's answer and its ids behind « Détails techniques »
 * (docs/workspace.md, « La fiche d'un prospect »).
 */
function deliverySection({ entry, steps, csrf }: LeadPageFacts): SafeHtml {
  const id = entry.lead.id;
  const stepLine = (step: DeliveryStep) =>
    html`<li><strong>${destinationLabel(step.destination)}</strong> : ${STEP_LABELS[step.status] ?? step.status} (${frenchCount(step.attempts, 'essai')})
${['retrying', 'dead', 'refused'].includes(step.status) ? html`<form method="post" action="/equipe/prospects/${id}/relancer" class="inline-form">${csrf}<input type="hidden" name="destination" value="${step.destination}"> <button type="submit">Relancer</button></form>` : ''}
<details><summary>Détails techniques</summary><p class="secret">${step.destination} (${step.provider})${step.detail || step.lastError ? html`<br>${step.detail ?? step.lastError}` : ''}</p></details></li>`;
  return html`<section aria-labelledby="livraison"><h2 id="livraison">Livraison</h2>
${steps.length ? html`<ol class="timeline" aria-label="Étapes de livraison">${steps.map(stepLine)}</ol>` : html`<p>Aucune étape de livraison${entry.status === 'spam' ? ` : cette demande attend dans « À vérifier » (${spamReasonLabel(entry.spamReason)})` : ''}.</p>`}
</section>`;
}

function othersSection({ entry, others }: LeadPageFacts): SafeHtml {
  const id = entry.lead.id;
  const list = others.filter((other) => other.lead.id !== id);
  return html`<section aria-labelledby="autres"><h2 id="autres">Ses autres demandes</h2>
${list.length ? html`<ul>${list.map((other) => html`<li><a href="/equipe/prospects/${other.lead.id}">${kindLabel(other.lead.kind)} du ${parisTime(other.lead.receivedAt)}</a></li>`)}</ul>` : html`<p>Aucune autre.</p>`}
<p><a href="/equipe/prospects/${id}/personne">Tout ce qui est gardé de cette personne</a></p>
</section>`;
}

/**
 * The lead page's sections in the order a phone reads them: facts and actions, the message, (the
 * conversation), the history, the delivery. A feature adds its block as one more entry here.
 */
export function leadPageBody(facts: LeadPageFacts, context: WorkspaceContext): SafeHtml {
  return html`${[
    factsSection(facts, context),
    facts.inbound,
    messageSection(facts),
    facts.answering,
    historySection(facts),
    deliverySection(facts),
    othersSection(facts),
  ]}`;
}
