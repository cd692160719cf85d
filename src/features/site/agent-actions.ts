import {
  AUDIT_EXAMPLE,
  CONTACT_EXAMPLE,
  DIAGNOSTIC_EXAMPLE,
  SUBSCRIBE_EXAMPLE,
} from '../../kernel/schemas/examples.ts';
import { currentWording } from '../../kernel/schemas/consent.ts';
import {
  SECTOR_DESCRIPTORS,
  sectorValues,
  type SectorDescriptor,
} from '../../kernel/schemas/sector-descriptors.ts';
import {
  PRIVACY_API_PATH,
  PRIVACY_PAGE_PATH,
  PRIVACY_EXAMPLE,
  PRIVACY_TOOL_NAME,
} from '../../kernel/schemas/privacy-request.ts';

/** The MCP tools an assistant may call: one per lead kind, and the privacy request. */
export const privacyToolName = PRIVACY_TOOL_NAME;

/**
 * What an assistant can do for a person from /llms.txt alone (docs/agents.md): each action is one
 * POST of the example body, with the person's values, and the page whose Markdown explains it.
 */
export interface AgentAction {
  name: string;
  /** The page of the site's form, linked in its Markdown version. */
  page: string;
  endpoint: string;
  body: object;
  notes: string;
}

/**
 * docs/consent.md: an assistant says it collected the person's consent, on the wording the site
 * shows today, so the journal records the channel `agent` (without it, `api`).
 */
function asAgent(kind: string, body: object): object {
  return { ...body, consent: { version: currentWording(kind).version, channel: 'agent' } };
}

/** The actions for these sectors: the audit's notes name every one (test/architecture/fourth-sector.test.ts). */
export function agentActions(
  sectors: readonly SectorDescriptor[] = SECTOR_DESCRIPTORS,
): readonly AgentAction[] {
  return [
    {
      name: 'Demande de contact',
      page: '/contact',
      endpoint: '/api/contact',
      body: asAgent('contact', CONTACT_EXAMPLE),
      notes:
        'projet de site, fiche Google, référencement local ou visibilité IA : PRENOM, NOM, EMAIL, JOB_TITLE, TYPE_BESOIN (Attirer, Engager, Convertir), SERVICE et DEMANDE obligatoires ; e-mail de confirmation immédiat, réponse humaine sous 24 heures ouvrées.',
    },
    {
      name: 'Diagnostic gratuit',
      page: '/diagnostic-gratuit',
      endpoint: '/api/contact',
      body: asAgent('contact', DIAGNOSTIC_EXAMPLE),
      notes:
        'demande courte : avec TOOL_SOURCE, seuls PRENOM et EMAIL sont obligatoires ; JOB_TITLE (activité et ville) et DEMANDE (site ou fiche à examiner) aident.',
    },
    {
      name: 'Lettre mensuelle',
      page: '/newsletter',
      endpoint: '/api/subscribe',
      body: asAgent('subscribe', SUBSCRIBE_EXAMPLE),
      notes:
        'email et firstName obligatoires ; une adresse déjà inscrite n’est pas une erreur : succès avec existing: true. La réponse dit aussi `confirmation` : `sent` (un lien de confirmation part, la personne doit cliquer), `already_sent` (un lien est déjà parti dans les 24 heures, à chercher dans sa boîte), `not_needed` (déjà inscrite et confirmée).',
    },
    {
      name: 'Audit sectoriel',
      page: '/secteurs',
      endpoint: '/api/audit',
      body: asAgent('audit', AUDIT_EXAMPLE),
      notes: `audit de l’un des secteurs ${sectorValues(sectors)} : email et firstName obligatoires, sector, et formData dont les clés sont les questions exactes du questionnaire JSON du secteur (section Secteurs). Une réponse hors des choix, ou aucune réponse, est acceptée et signalée dans \`warnings\`.`,
    },
    {
      name: 'Demande sur ses données (RGPD)',
      page: PRIVACY_PAGE_PATH,
      endpoint: PRIVACY_API_PATH,
      body: PRIVACY_EXAMPLE,
      notes:
        'kind `unsubscribe` (newsletter), `access` (copie par e-mail de ce que l’agence garde) ou `erasure` (effacement), email, message facultatif ; rien n’est fait avant que la personne suive le lien envoyé à l’adresse et appuie sur le bouton ; même réponse que l’adresse soit connue ou non.',
    },
  ];
}
