import { currentWording } from '../../kernel/schemas/consent.ts';
import { frenchList } from '../../kernel/schemas/french-text.ts';
import {
  LEAD_KINDS,
  type ApiAction,
  type LeadKindDescriptor,
} from '../../kernel/schemas/lead-kinds.ts';
import { PRIVACY_ACTION, PRIVACY_KINDS } from '../../kernel/schemas/privacy-request.ts';
import { questionnairePath } from '../../kernel/schemas/questionnaires.ts';
import { absoluteLinks, slugify } from './markdown.ts';
import type { Page } from './pages.ts';
import { canonicalUrl } from './templates/layout.ts';

/** The id markdown.ts gives the heading "POST /api/contact" of the /developers reference. */
export function endpointAnchor(path: string): string {
  return slugify(`POST ${path}`);
}

function apiLink(siteUrl: string, path: string): string {
  return `[POST ${path}](${siteUrl}/developers#${endpointAnchor(path)})`;
}

/** How a form of the site maps onto an endpoint: the values it sets itself. */
interface FormApi {
  action: ApiAction;
  fixed?: Record<string, string>;
  /** A few words after a field name, where its meaning is not obvious from the name. */
  notes?: Record<string, string>;
}

interface RequestSchema {
  properties: Record<string, unknown>;
  required?: string[];
  if?: { not?: { required?: string[] } };
  then?: { required?: string[] };
}

/** The endpoint of `kinds` that a form of the site posts to. */
function kindOf(kinds: readonly LeadKindDescriptor[], kind: string): LeadKindDescriptor {
  const found = kinds.find((candidate) => candidate.kind === kind);
  if (!found) throw new Error(`no lead kind ${kind}`);
  return found;
}

/** The site's forms on these endpoints (test/architecture/new-optional-field.test.ts passes others). */
const formsOf = (
  kinds: readonly LeadKindDescriptor[],
): Record<'contact' | 'diagnostic' | 'newsletter' | 'privacy', FormApi> => ({
  contact: {
    action: kindOf(kinds, 'contact'),
    notes: { TYPE_BESOIN: 'parmi `Attirer`, `Engager`, `Convertir`, séparés par des virgules' },
  },
  diagnostic: {
    action: kindOf(kinds, 'contact'),
    fixed: { TOOL_SOURCE: 'diagnostic-gratuit' },
    notes: { JOB_TITLE: 'activité et ville', DEMANDE: 'site ou fiche Google à examiner' },
  },
  newsletter: { action: kindOf(kinds, 'subscribe') },
  privacy: {
    action: PRIVACY_ACTION,
    notes: { kind: PRIVACY_KINDS.map((kind) => `\`${kind}\``).join(', ') },
  },
});

const list = (names: string[], notes: Record<string, string> = {}) =>
  frenchList(names.map((name) => `\`${name}\`${notes[name] ? ` (${notes[name]})` : ''}`));

/** Fields that say where a request came from (LeadKindDescriptor.fields.origin), or hold the questionnaire's answers. */
function notTyped(action: ApiAction): string[] {
  const { fields, questionnaire } = action as Partial<LeadKindDescriptor>;
  return [...(fields?.origin ?? []), ...(questionnaire ? [questionnaire.answers] : [])];
}

/**
 * "avec `PRENOM`, `EMAIL` … (obligatoires), et au besoin `SMS` …": the required and the optional
 * fields come from the endpoint's schema (a short request, spec 2.1, when the form sets the field
 * that makes one), so they cannot drift; the consent proof and the origin fields are said apart.
 */
function fieldsSentence(form: FormApi): string {
  const schema = form.action.schema as unknown as RequestSchema;
  const fixed = form.fixed ?? {};
  const shortField = schema.if?.not?.required?.[0];
  const short = shortField !== undefined && shortField in fixed;
  const required = Object.keys(schema.properties).filter(
    (name) =>
      !(name in fixed) &&
      (schema.required?.includes(name) || (!short && schema.then?.required?.includes(name))),
  );
  const left = [...required, ...Object.keys(fixed), ...notTyped(form.action), 'consent'];
  const optional = Object.keys(schema.properties).filter((name) => !left.includes(name));
  const parts = [
    ...Object.entries(fixed).map(([name, value]) => `\`${name}\` = \`${value}\``),
    `${list(required, form.notes)} (obligatoires)`,
  ];
  const sentence = parts.join(', ');
  return optional.length ? `${sentence}, et au besoin ${list(optional, form.notes)}` : sentence;
}

/** What an agent needs to send the page's form itself: endpoint, fields, and the questionnaire. */
function formSection(page: Page, siteUrl: string, kinds: readonly LeadKindDescriptor[]): string {
  const forms = formsOf(kinds);
  const consentFor = (kind: string) => {
    const wording = currentWording(kind);
    return `Un agent peut l’envoyer en JSON pour la personne qu’il aide, uniquement avec son accord explicite sur le texte que le formulaire affiche près de son bouton d’envoi : « ${wording.text} » (à indiquer dans \`consent\` : \`{"version": "${wording.version}", "channel": "agent"}\`).`;
  };
  const send = (form: FormApi) => apiLink(siteUrl, form.action.path);
  const parts: string[] = [];
  if (page.form === 'contact' || page.form === 'diagnostic') {
    const form = forms[page.form];
    parts.push(
      `Le formulaire de cette page envoie ${send(form)} avec ${fieldsSentence(form)}. ${consentFor(form.action.kind)}`,
    );
  }
  if (page.form === 'audit') {
    const form: FormApi = {
      action: kindOf(kinds, 'audit'),
      fixed: { sector: page.sector ?? '' },
    };
    const questions = page.questions.map((item) =>
      item.answer === 'choice'
        ? `- ${item.question} (réponses proposées : ${item.choices.map((choice) => `« ${choice} »`).join(', ')})`
        : `- ${item.question}`,
    );
    parts.push(
      `Le questionnaire de cette page envoie ${send(form)} avec ${fieldsSentence(form)}, et \`formData\` : un objet dont chaque clé est une question ci-dessous, mot pour mot, et chaque valeur la réponse. Le même questionnaire en JSON (questions, type de réponse, choix, exemple de corps) : [${questionnairePath(page.sector!)}](${siteUrl}${questionnairePath(page.sector!)}). ${consentFor(form.action.kind)}`,
      questions.join('\n'),
    );
  }
  if (page.form === 'newsletter' || page.newsletter) {
    const form = forms.newsletter;
    parts.push(
      `Inscription à la newsletter : ${send(form)} avec ${fieldsSentence(form)}. ${consentFor(form.action.kind)}`,
    );
  }
  if (page.form === 'privacy') {
    // docs/consent.md, "Requests about one's data": the person confirms, whoever sends it.
    const form = forms.privacy;
    parts.push(
      `Le formulaire de cette page envoie ${send(form)} avec ${fieldsSentence(form)} ; la même demande est l’outil MCP \`${form.action.tool.name}\`. Un assistant peut l’envoyer pour la personne qu’il aide, à sa demande : rien n’est fait avant qu’elle ouvre le lien reçu à cette adresse et appuie sur le bouton. La réponse, \`{"success": true, "confirmation": "sent"}\` (ou \`already_sent\` si un lien est déjà parti dans les 24 heures), est la même que l’adresse soit connue ou non. Exemple de corps :`,
      `\`\`\`json\n${JSON.stringify(form.action.example, null, 2)}\n\`\`\``,
    );
  }
  return parts.length ? `## Envoyer ce formulaire par l’API\n\n${parts.join('\n\n')}` : '';
}

/**
 * A page for agents (docs/site.md): the content without navigation chrome, the title as H1, links
 * absolute on SITE_URL, and how to act on the page's form.
 */
export function pageMarkdown(
  page: Page,
  siteUrl: string,
  kinds: readonly LeadKindDescriptor[] = LEAD_KINDS,
): string {
  const url = canonicalUrl(siteUrl, page.path);
  return [
    `# ${page.title}`,
    `> ${page.description}`,
    absoluteLinks(page.body, siteUrl),
    formSection(page, siteUrl, kinds),
    page.path === '/404' ? '' : `---\n\nAdresse : ${url} · Mise à jour : ${page.updated}`,
  ]
    .filter(Boolean)
    .join('\n\n')
    .concat('\n');
}
