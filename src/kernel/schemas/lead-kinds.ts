import type { Static, TObject } from 'typebox';
import { AuditRequestSchema, type auditRequestSchema } from './audit-request.ts';
import { ContactRequestSchema } from './contact-request.ts';
import { AUDIT_EXAMPLE, CONTACT_EXAMPLE, SUBSCRIBE_EXAMPLE } from './examples.ts';
import { SECTOR_DESCRIPTORS, sectorValues, type SectorDescriptor } from './sector-descriptors.ts';
import { SubscribeRequestSchema } from './subscribe-request.ts';
import { inFrenchWords } from './french-text.ts';

/** Where the lead-intake API answers (spec 4): every endpoint path starts with it. */
export const API_PREFIX = '/api';

/** The Brevo list settings of the configuration (docs/brevo.md, Configuration). */
export type BrevoListSetting = 'contactListId' | 'newsletterListId' | 'auditListId';

/**
 * Everything that differs between two kinds of lead, in one place (docs/architecture.md): the routes,
 * /openapi.json, /developers, llms.txt, the e-mails, the Brevo contact and the Markdown of the site's
 * forms are derived from it. Adding an endpoint is one request schema and one descriptor here.
 */
export interface LeadKindDescriptor<K extends string = string, S extends TObject = TObject> {
  /** Written in the journal's `kind` column: never renamed once leads exist. */
  kind: K;
  /** The request body (spec 2): validation, TypeScript type, OpenAPI component, /developers. */
  schema: S;
  schemaName: string;
  path: `${typeof API_PREFIX}/${string}`;
  operationId: string;
  summary: string;
  description: string;
  /** Where an HTML form sent without JavaScript lands (spec 4 rule 4, one page per outcome). */
  thankYouPath: string;
  /** The same action as an MCP tool (/mcp) and a WebMCP form tool: its name and an English summary. */
  tool: { name: string; english: string };
  /** A complete valid body, quoted in the invalid_json hint and the OpenAPI examples. */
  example: Static<S>;
  /** Which fields of the body say who the person is (reply-to, Brevo identity, greeting). */
  fields: {
    email: keyof Static<S> & string;
    firstName: keyof Static<S> & string;
    lastName?: keyof Static<S> & string;
    phone?: keyof Static<S> & string;
    phoneCountryCode?: keyof Static<S> & string;
    /** A field whose value completes the agency's notification subject, e.g. the audited sector. */
    subjectDetail?: keyof Static<S> & string;
    /**
     * Fields saying where the request came from (a tool, a page), not what the person wrote: the
     * notification shows them, the summary in the sender's confirmation leaves them out.
     */
    origin?: readonly (keyof Static<S> & string)[];
  };
  /**
   * Spec 2.3: a field holding answers to a sector's questionnaire (question → answer), and the field
   * naming that sector. Its keys are filed under the questions' exact texts, and the agency's
   * notification marks the answers no question asked.
   */
  questionnaire?: { answers: keyof Static<S> & string; sector: keyof Static<S> & string };
  /** Spec 2.4: the answer says whether the address was already known. */
  answersExisting: boolean;
  /** Spec 1 and 6: a confirmation e-mail goes to the sender (else only the agency is written to). */
  confirmsToSender: boolean;
  /** Subject of the e-mail that tells the agency about the lead (every lead sends one). */
  notificationTitle: string;
  /** The Brevo list the contact joins; a required list that is not set stops the delivery. */
  brevoList: { setting: BrevoListSetting; variable: string; required: boolean };
}

/**
 * What an API action publishes, lead or not (the privacy request of
 * src/kernel/schemas/privacy-request.ts too): its route, /openapi.json, /developers, the site's
 * form with its WebMCP tool.
 */
export type ApiAction = Pick<
  LeadKindDescriptor,
  | 'kind'
  | 'schema'
  | 'schemaName'
  | 'path'
  | 'operationId'
  | 'summary'
  | 'description'
  | 'thankYouPath'
  | 'tool'
  | 'example'
> & {
  /** The field that carries the address. */
  fields: { email: string };
};

function leadKind<const K extends string, S extends TObject>(
  descriptor: LeadKindDescriptor<K, S>,
): LeadKindDescriptor<K, S> {
  return descriptor;
}

/**
 * The audit endpoint's descriptor (src/kernel/schemas/lead-kinds.ts) for these sectors: its description
 * and its MCP tool's name the sectors it audits, so a new sector reaches /openapi.json and MCP.
 */
export function auditKind<S extends ReturnType<typeof auditRequestSchema>>(
  schema: S,
  sectors: readonly SectorDescriptor[],
): LeadKindDescriptor<'audit', S> {
  const values = sectorValues(sectors);
  return {
    kind: 'audit',
    schema,
    schemaName: 'AuditRequest',
    path: '/api/audit',
    operationId: 'submitSectorAudit',
    example: AUDIT_EXAMPLE as LeadKindDescriptor<'audit', S>['example'],
    tool: {
      name: 'submit_sector_audit',
      english: `Request an online-visibility audit for one of the ${sectors.length} sectors (sector: ${values.replace(/ ou /, ' or ')}): email and firstName required; formData maps each question of the sector’s questionnaire (read the questionnaire resource, exact texts) to the person’s answer. Only with the explicit consent of the person concerned.`,
    },
    thankYouPath: '/secteurs/merci',
    summary: 'Demander un audit de visibilité sectoriel',
    description: `Enregistre une demande d’audit de présence en ligne pour l’un des secteurs ${values} (${sectors.map(({ sector, label }) => `${sector} : ${label.toLowerCase()}`).join(' ; ')}), avec les réponses du questionnaire de la page du secteur. existing vaut true quand l’adresse est déjà connue. À n’envoyer qu’avec l’accord explicite de la personne concernée.`,
    fields: {
      email: 'email',
      firstName: 'firstName',
      lastName: 'lastName',
      phone: 'phone',
      subjectDetail: 'sector',
    } as LeadKindDescriptor<'audit', S>['fields'],
    questionnaire: { answers: 'formData', sector: 'sector' } as LeadKindDescriptor<
      'audit',
      S
    >['questionnaire'],
    answersExisting: true,
    confirmsToSender: true,
    notificationTitle: 'Nouvelle demande d’audit',
    brevoList: { setting: 'auditListId', variable: 'BREVO_AUDIT_LIST_ID', required: false },
  };
}

/** The lead endpoints of spec section 4 (the privacy request is src/kernel/schemas/privacy-request.ts). */
export const LEAD_KINDS = [
  leadKind({
    kind: 'contact',
    schema: ContactRequestSchema,
    schemaName: 'ContactRequest',
    path: '/api/contact',
    operationId: 'submitContactRequest',
    example: CONTACT_EXAMPLE,
    tool: {
      name: 'submit_contact_request',
      english:
        'Send a contact or free-diagnostic request to the agency (custom website, Google Business Profile, local SEO, visibility in AI assistants). The person gets a confirmation e-mail at once and a human answer within 24 business hours. Full form: PRENOM (first name), NOM (last name), EMAIL, JOB_TITLE (trade), TYPE_BESOIN (Attirer, Engager and/or Convertir, comma-separated), SERVICE, DEMANDE (project). Short request: TOOL_SOURCE (origin), PRENOM and EMAIL only. Only with the explicit consent of the person concerned.',
    },
    // The spec's confirmation page, for the contact form and the free diagnostic alike.
    thankYouPath: '/contact/merci',
    summary: 'Envoyer une demande de contact ou de diagnostic gratuit',
    description:
      'Demande de site sur mesure, de fiche d’établissement Google, de référencement local, de visibilité dans les moteurs IA ou de diagnostic gratuit. Effet : un e-mail de confirmation part aussitôt vers EMAIL ; une personne répond sous 24 heures ouvrées. Sans TOOL_SOURCE, PRENOM, NOM, EMAIL, JOB_TITLE, TYPE_BESOIN, SERVICE et DEMANDE sont obligatoires ; avec TOOL_SOURCE, seuls PRENOM et EMAIL le sont. À n’envoyer qu’avec l’accord explicite de la personne concernée.',
    fields: {
      email: 'EMAIL',
      firstName: 'PRENOM',
      lastName: 'NOM',
      phone: 'SMS',
      phoneCountryCode: 'SMS__COUNTRY_CODE',
      subjectDetail: 'JOB_TITLE',
      origin: ['TOOL_SOURCE', 'TOOL_DATA'],
    },
    answersExisting: false,
    confirmsToSender: true,
    notificationTitle: 'Nouvelle demande de contact',
    brevoList: { setting: 'contactListId', variable: 'BREVO_CONTACT_LIST_ID', required: false },
  }),
  leadKind({
    kind: 'subscribe',
    schema: SubscribeRequestSchema,
    schemaName: 'SubscribeRequest',
    path: '/api/subscribe',
    operationId: 'subscribeNewsletter',
    example: SUBSCRIBE_EXAMPLE,
    tool: {
      name: 'subscribe_newsletter',
      english:
        'Subscribe an address to the agency’s monthly newsletter (one practical tip a month): email and firstName required. An address already subscribed is a success with existing: true. By default (double opt-in) the person then receives an e-mail with a confirmation link and joins the list only once they confirm: tell them to look in their inbox. Only with the explicit consent of the person concerned.',
    },
    thankYouPath: '/newsletter/merci',
    summary: 'Inscrire une adresse à la newsletter',
    description:
      'Inscrit l’adresse à la newsletter (un conseil concret par mois). Une adresse déjà inscrite n’est pas une erreur : la réponse est un succès avec existing: true. Par défaut (double opt-in), la personne reçoit ensuite un e-mail avec un lien de confirmation et n’est ajoutée à la liste qu’après avoir confirmé. À n’envoyer qu’avec l’accord explicite de la personne concernée.',
    fields: { email: 'email', firstName: 'firstName', lastName: 'lastName', origin: ['source'] },
    answersExisting: true,
    confirmsToSender: false,
    notificationTitle: 'Nouvelle inscription à la lettre',
    // Spec 4.2 promises a newsletter subscription: without its list there is nowhere to put it.
    brevoList: {
      setting: 'newsletterListId',
      variable: 'BREVO_NEWSLETTER_LIST_ID',
      required: true,
    },
  }),
  auditKind(AuditRequestSchema, SECTOR_DESCRIPTORS),
] as const;

type Descriptors = (typeof LEAD_KINDS)[number];
type RequestOf<D> =
  D extends LeadKindDescriptor<infer K, infer S> ? { kind: K; data: Static<S> } : never;

/** What a caller asked for, once validated: the kind says which schema the data follows (spec 2.1–2.3). */
export type LeadRequest = RequestOf<Descriptors>;
export type LeadKind = Descriptors['kind'];
/** A body as its route receives it, once validated by its kind's schema (spec 2.1–2.3). */
export type LeadBody = Static<Descriptors['schema']>;
/** A body without its consent declaration, which is proof about the request, not part of it. */
export type LeadData = LeadBody extends infer B
  ? B extends unknown
    ? Omit<B, 'consent'>
    : never
  : never;

/**
 * The request `data` makes at `descriptor`'s endpoint. Fastify (or the MCP tool's validator) has
 * checked the body against that descriptor's own schema, a pairing TypeScript cannot follow through
 * a list of descriptors: this is the one place that asserts it.
 */
export function leadRequestOf(descriptor: LeadKindDescriptor, data: LeadData): LeadRequest {
  return { kind: descriptor.kind, data } as LeadRequest;
}

export function leadKindOf(kind: LeadKind): LeadKindDescriptor {
  const descriptor = LEAD_KINDS.find((candidate) => candidate.kind === kind);
  if (!descriptor) throw new Error(`unknown lead kind ${kind}`);
  return descriptor as LeadKindDescriptor;
}

/** The endpoint answering at `path` (the URL without its query), if any. */
export function leadKindAt(path: string): LeadKindDescriptor | undefined {
  return LEAD_KINDS.find((kind) => kind.path === path) as LeadKindDescriptor | undefined;
}

/** A text field of a request body, by the name a descriptor gives; undefined when absent or empty. */
export function textField(data: object, name: string | undefined): string | undefined {
  const value = name === undefined ? undefined : (data as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** An object field of a request body (questionnaire answers), by the name a descriptor gives. */
export function answersField(
  data: object,
  name: string | undefined,
): Record<string, string> | undefined {
  const value = name === undefined ? undefined : (data as Record<string, unknown>)[name];
  return typeof value === 'object' && value !== null
    ? (value as Record<string, string>)
    : undefined;
}

export { inFrenchWords };

/**
 * "quatre points d’accès": the number of endpoints (apiEndpoints() of src/kernel/schemas/api-endpoints.ts,
 * the privacy request included) in French words, for the prose around them.
 */
export function endpointCount(
  endpoints: readonly { path: string }[],
  { capitalized = false } = {},
): string {
  const count = inFrenchWords(endpoints.length, { capitalized });
  return `${count} point${endpoints.length > 1 ? 's' : ''} d’accès`;
}
