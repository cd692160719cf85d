import { AuditRequestSchema } from '../../../kernel/schemas/audit-request.ts';
import { ContactRequestSchema } from '../../../kernel/schemas/contact-request.ts';
import { leadKindAt, type ApiAction } from '../../../kernel/schemas/lead-kinds.ts';
import { FORM_MESSAGES } from '../../../kernel/schemas/form-messages.ts';
import {
  PRIVACY_ACTION,
  PRIVACY_KIND_CHOICES,
  PrivacyRequestSchema,
  type PrivacyKind,
} from '../../../kernel/schemas/privacy-request.ts';
import { SubscribeRequestSchema } from '../../../kernel/schemas/subscribe-request.ts';
import type { AuditQuestion, Page } from '../pages.ts';
import {
  consentField,
  fieldId,
  fieldRules,
  formFooter,
  inputField,
  requiredMark,
} from './form-fields.ts';
import { botTrap } from './bot-trap.ts';
import { attributes, escapeHtml } from './html.ts';
import { describeControls, webMcpForm } from './webmcp.ts';

/** Spec 2.1: TYPE_BESOIN holds pillars among these, comma-joined (a repeated form field is joined). */
const PILLARS = [
  ['Attirer', 'être trouvé par vos futurs clients'],
  ['Engager', 'leur donner confiance dès la première visite'],
  ['Convertir', 'transformer la visite en prise de contact'],
] as const;

const COUNTRY_CODES = [
  ['+33', 'France (+33)'],
  ['+32', 'Belgique (+32)'],
  ['+41', 'Suisse (+41)'],
  ['+352', 'Luxembourg (+352)'],
  ['+377', 'Monaco (+377)'],
  ['+1', 'Canada (+1)'],
];

/** The French messages forms.js shows, the same the server writes into a refused form's page. */
const ERROR_ATTRIBUTES = Object.fromEntries(
  Object.entries(FORM_MESSAGES).map(([kind, message]) => [
    `data-error-${kind.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`,
    message,
  ]),
);

/** The lead endpoint answering at `action`: its thank-you page, its tool, its schema. */
function leadAction(action: string): ApiAction {
  const endpoint = leadKindAt(action);
  if (!endpoint) throw new Error(`No API endpoint answers ${action}`);
  return endpoint;
}

/**
 * A plain HTML form that works without JavaScript (303 → its thank-you page); forms.js upgrades it
 * to JSON; WebMCP attributes make it a tool for in-browser agents (webmcp.ts). A lead's form carries
 * the bot trap; the privacy request's does not: it does nothing before the person confirms by
 * e-mail, and a request lost to a false catch would be a person's right unanswered.
 */
function form(endpoint: ApiAction, label: string, content: string, trap = true): string {
  const action = endpoint.path;
  return `<form class="lead-form" method="post"${attributes({ action, 'aria-label': label, 'data-thank-you': endpoint.thankYouPath, ...ERROR_ATTRIBUTES, ...webMcpForm(endpoint) })} data-lead-form>
${describeControls(content, endpoint)}${trap ? `\n${botTrap(endpoint)}` : ''}
</form>`;
}

function contactForm(): string {
  const f = { form: 'contact', schema: ContactRequestSchema, full: true };
  const pillarsId = fieldId('contact', 'TYPE_BESOIN');
  const pillars = PILLARS.map(
    ([value, meaning]) => `<div class="choice">
<input type="checkbox" name="TYPE_BESOIN" value="${value}" id="${pillarsId}-${value.toLowerCase()}">
<label for="${pillarsId}-${value.toLowerCase()}"><strong>${value}</strong> : ${escapeHtml(meaning)}</label>
</div>`,
  ).join('\n');
  const countryId = fieldId('contact', 'SMS__COUNTRY_CODE');
  return form(
    leadAction('/api/contact'),
    'Demande de contact',
    `<div class="field-row">
${inputField({ ...f, name: 'PRENOM', label: 'Prénom', autocomplete: 'given-name' })}
${inputField({ ...f, name: 'NOM', label: 'Nom', autocomplete: 'family-name' })}
</div>
${inputField({ ...f, name: 'EMAIL', label: 'Adresse e-mail', autocomplete: 'email', help: 'Vous recevez aussitôt un e-mail de confirmation.' })}
${inputField({ ...f, name: 'JOB_TITLE', label: 'Votre métier ou activité', autocomplete: 'organization-title' })}
<fieldset class="field choices" id="${pillarsId}" data-field="TYPE_BESOIN" data-required-group>
<legend>Les piliers concernés${requiredMark(true)}</legend>
<p class="help">Cochez au moins une case ; si vous hésitez, cochez les trois.</p>
${pillars}
</fieldset>
${inputField({ ...f, name: 'SERVICE', label: 'Le service souhaité', help: 'En quelques mots : « refaire mon site », « plus d’appels », « je ne sais pas encore ».' })}
${inputField({ ...f, name: 'DEMANDE', label: 'Votre projet', multiline: true, help: 'Votre situation actuelle, ce que vous aimeriez obtenir, vos délais.' })}
<fieldset class="field phone">
<legend>Téléphone${requiredMark(false)}</legend>
<p class="help">Si vous préférez être rappelé.</p>
<div class="field-row">
<div class="field">
<label for="${countryId}">Indicatif</label>
<select id="${countryId}" name="SMS__COUNTRY_CODE" autocomplete="tel-country-code">
${COUNTRY_CODES.map(([code, name]) => `<option value="${code}">${name}</option>`).join('\n')}
</select>
</div>
${inputField({ ...f, name: 'SMS', label: 'Numéro', type: 'tel' })}
</div>
</fieldset>
${consentField('contact')}
${formFooter('Envoyer ma demande', 'Réponse humaine sous 24 heures ouvrées.')}`,
  );
}

function diagnosticForm(page: Page): string {
  const f = { form: 'diagnostic', schema: ContactRequestSchema };
  // Spec 2.1 short request: TOOL_SOURCE makes PRENOM and EMAIL the only required fields.
  const toolData = JSON.stringify({ formulaire: 'diagnostic-gratuit', page: page.path });
  return form(
    leadAction('/api/contact'),
    'Demande de diagnostic gratuit',
    `<input type="hidden" name="TOOL_SOURCE" value="diagnostic-gratuit">
<input type="hidden" name="TOOL_DATA" value="${escapeHtml(toolData)}">
<div class="field-row">
${inputField({ ...f, name: 'PRENOM', label: 'Prénom', autocomplete: 'given-name' })}
${inputField({ ...f, name: 'EMAIL', label: 'Adresse e-mail', autocomplete: 'email' })}
</div>
${inputField({ ...f, name: 'JOB_TITLE', label: 'Votre activité et votre ville', autocomplete: 'organization-title' })}
${inputField({ ...f, name: 'DEMANDE', label: 'Votre site ou votre fiche Google', multiline: true, help: 'Son adresse ou le nom de votre établissement, et ce qui vous préoccupe.' })}
${consentField('diagnostic')}
${formFooter('Recevoir mon diagnostic gratuit', 'Réponse humaine sous 24 heures ouvrées.')}`,
  );
}

export function newsletterForm(page: Page): string {
  const f = { form: 'lettre', schema: SubscribeRequestSchema };
  const source = `site:${page.path}`.slice(
    0,
    fieldRules(SubscribeRequestSchema, 'source').maxLength,
  );
  return `<section class="newsletter" aria-labelledby="lettre-titre">
<h2 id="lettre-titre">Recevoir la newsletter</h2>
<p>Un conseil concret par mois, applicable en moins d’une heure. Désinscription en un clic.</p>
${form(
  leadAction('/api/subscribe'),
  'Inscription à la newsletter',
  `<input type="hidden" name="source" value="${escapeHtml(source)}">
<div class="field-row">
${inputField({ ...f, name: 'firstName', label: 'Prénom', autocomplete: 'given-name' })}
${inputField({ ...f, name: 'email', label: 'Adresse e-mail', autocomplete: 'email' })}
</div>
${consentField('lettre')}
${formFooter('M’inscrire')}`,
)}
</section>`;
}

function questionField(question: AuditQuestion, index: number): string {
  const name = `formData[${question.question}]`;
  const id = `audit-q${index + 1}`;
  if (question.answer === 'text') {
    return `<div class="field">
<label for="${id}">${escapeHtml(question.question)}${requiredMark(false)}</label>
<input type="text" id="${id}"${attributes({ name })}>
</div>`;
  }
  const choices = question.choices
    .map(
      (choice, position) => `<div class="choice">
<input type="radio" id="${id}-${position + 1}"${attributes({ name, value: choice })}>
<label for="${id}-${position + 1}">${escapeHtml(choice)}</label>
</div>`,
    )
    .join('\n');
  return `<fieldset class="field choices"${attributes({ 'data-field': name })}>
<legend>${escapeHtml(question.question)}${requiredMark(false)}</legend>
${choices}
</fieldset>`;
}

function auditForm(page: Page): string {
  const f = { form: 'audit', schema: AuditRequestSchema };
  fieldRules(AuditRequestSchema, 'formData');
  return form(
    leadAction('/api/audit'),
    'Questionnaire d’audit',
    `<input type="hidden" name="sector"${attributes({ value: page.sector })}>
${page.questions.map(questionField).join('\n')}
<fieldset class="field contact-details">
<legend>Vos coordonnées</legend>
<div class="field-row">
${inputField({ ...f, name: 'firstName', label: 'Prénom', autocomplete: 'given-name' })}
${inputField({ ...f, name: 'lastName', label: 'Nom', autocomplete: 'family-name' })}
</div>
<div class="field-row">
${inputField({ ...f, name: 'email', label: 'Adresse e-mail', autocomplete: 'email' })}
${inputField({ ...f, name: 'phone', label: 'Téléphone', type: 'tel', autocomplete: 'tel' })}
</div>
</fieldset>
${consentField('audit')}
${formFooter('Demander mon audit')}`,
  );
}

/**
 * The request about one's data (docs/consent.md): the kind to choose, or set when the page asks for
 * one (the newsletter's unsubscribe page), the address the confirmation link goes to, a message.
 */
export function privacyForm(kind?: PrivacyKind): string {
  const f = { form: 'donnees', schema: PrivacyRequestSchema };
  const kindId = fieldId('donnees', 'kind');
  const choices = PRIVACY_KIND_CHOICES.map(
    ({ kind: value, label }) => `<option${attributes({ value })}>${escapeHtml(label)}</option>`,
  ).join('\n');
  const kindField = kind
    ? `<input type="hidden" name="kind"${attributes({ value: kind })}>`
    : `<div class="field">
<label for="${kindId}">Votre demande${requiredMark(true)}</label>
<select id="${kindId}" name="kind" required>
<option value="">Choisissez…</option>
${choices}
</select>
</div>`;
  return form(
    PRIVACY_ACTION,
    kind === 'unsubscribe' ? 'Demande de désinscription' : 'Demande sur vos données',
    `${kindField}
${inputField({ ...f, name: 'email', label: 'Adresse e-mail concernée', autocomplete: 'email', help: 'Le lien de confirmation part à cette adresse : seule la personne qui la lit peut confirmer.' })}
${kind ? '' : inputField({ ...f, name: 'message', label: 'Une précision', multiline: true })}
${formFooter('Envoyer ma demande', 'Rien n’est fait avant votre confirmation par e-mail.')}`,
    false,
  );
}

/** The anchor of a page's own form. */
export const FORM_ANCHOR = 'formulaire';

const FORM_CTA_LABELS: Record<NonNullable<Page['form']>, string> = {
  contact: 'Écrire ma demande',
  diagnostic: 'Demander mon diagnostic gratuit',
  audit: 'Demander mon audit',
  newsletter: 'M’inscrire à la newsletter',
  privacy: 'Faire ma demande',
};

/** The call to action of a page with its own form: down to that form. */
export function ownFormCta(form: NonNullable<Page['form']>): { path: string; label: string } {
  return { path: `#${FORM_ANCHOR}`, label: FORM_CTA_LABELS[form] };
}

/**
 * The page's own form at #formulaire, the target of the call to action under the title; before it,
 * a button that stays at the bottom of a phone's screen until the form comes into view (CSS
 * `position: sticky`, no script): the form is never more than one tap away (docs/site.md, "Forms
 * within reach").
 */
function ownForm(form: NonNullable<Page['form']>, html: string): string {
  return `<p class="form-jump"><a class="button" href="#${FORM_ANCHOR}">${escapeHtml(FORM_CTA_LABELS[form])}</a></p>
<div class="page-form" id="${FORM_ANCHOR}">
${html}
</div>`;
}

/** The form a page's front matter asks for, then its newsletter block (content contract, docs/site.md). */
export function pageForms(page: Page): string {
  const parts: string[] = [];
  if (page.form === 'contact') parts.push(contactForm());
  if (page.form === 'diagnostic') parts.push(diagnosticForm(page));
  if (page.form === 'audit') parts.push(auditForm(page));
  if (page.form === 'privacy') parts.push(privacyForm());
  if (page.form === 'newsletter' || page.newsletter) parts.push(newsletterForm(page));
  if (page.form && parts[0]) parts[0] = ownForm(page.form, parts[0]);
  return parts.join('\n');
}
