import { Type, type Static } from 'typebox';
import { emailAddress, optionalText } from './fields.ts';
import type { ApiAction } from './lead-kinds.ts';

/*
 * docs/consent.md, "Requests about one's data": a person's RGPD request, which an assistant may
 * start for them (POST /api/privacy, MCP tool request_privacy_action, the form of /vos-donnees) and
 * only the person confirms, by the signed link e-mailed to the address.
 */

export const PRIVACY_API_PATH = '/api/privacy';
/** The site's page with the request form, and where that form lands once the request is taken. */
export const PRIVACY_PAGE_PATH = '/vos-donnees';
export const PRIVACY_THANK_YOU_PATH = `${PRIVACY_PAGE_PATH}/merci`;
export const PRIVACY_TOOL_NAME = 'request_privacy_action';
export const PRIVACY_KINDS = ['unsubscribe', 'access', 'erasure'] as const;
export type PrivacyKind = (typeof PRIVACY_KINDS)[number];

/** What each kind does once confirmed, in the words of the pages and e-mails. */
export const PRIVACY_KIND_LABELS: Record<PrivacyKind, string> = {
  unsubscribe: 'vous désinscrire de la newsletter',
  access: 'recevoir par e-mail tout ce que nous gardons de cette adresse',
  erasure: 'effacer tout ce que nous gardons de cette adresse',
};

/** The choices of the site's form, in the words of a person asking. */
export const PRIVACY_KIND_CHOICES: readonly { kind: PrivacyKind; label: string }[] = [
  { kind: 'unsubscribe', label: 'Ne plus recevoir la newsletter' },
  { kind: 'access', label: 'Recevoir par e-mail ce que vous gardez de moi' },
  { kind: 'erasure', label: 'Effacer tout ce que vous gardez de moi' },
];

export const PrivacyRequestSchema = Type.Object(
  {
    kind: Type.Enum(PRIVACY_KINDS, {
      type: 'string',
      description:
        'La demande : `unsubscribe` (ne plus recevoir la newsletter), `access` (recevoir par e-mail ce que l’agence garde de cette adresse), `erasure` (tout effacer).',
      examples: ['erasure'],
    }),
    email: emailAddress('L’adresse concernée : le lien de confirmation lui est envoyé.'),
    message: optionalText('Message', 2000, 'Facultatif : une précision pour l’agence.', [
      'Demande envoyée par mon assistant.',
    ]),
  },
  {
    additionalProperties: false,
    description:
      'Une demande sur ses données (RGPD). Rien n’est fait sur la foi de l’appelant : un lien signé, à usage unique, est envoyé à l’adresse, et seule la personne qui le suit confirme.',
  },
);
export type PrivacyRequestBody = Static<typeof PrivacyRequestSchema>;

export const PrivacyResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    confirmation: Type.Enum(['sent', 'already_sent', 'not_sent'] as const, {
      type: 'string',
      description:
        '`sent` : un e-mail avec un lien de confirmation part vers l’adresse ; `already_sent` : un lien lui a déjà été envoyé dans les dernières 24 heures (un par adresse au plus), à suivre ; `not_sent` : trop d’e-mails sont partis vers le domaine de l’adresse dans l’heure (le plafond par domaine des formulaires), aucun n’est parti : réessayez plus tard ou écrivez à l’agence. La réponse est la même que l’adresse soit connue de l’agence ou non.',
    }),
  },
  { additionalProperties: false, description: 'Demande enregistrée, en attente de confirmation.' },
);
export type PrivacyResponse = Static<typeof PrivacyResponseSchema>;

export const PRIVACY_EXAMPLE: PrivacyRequestBody = {
  kind: 'erasure',
  email: 'marie.dupont@example.fr',
  message: 'Demande envoyée par mon assistant.',
};

export const PRIVACY_SUMMARY = 'Demander l’effacement, l’accès ou la désinscription (RGPD)';
export const PRIVACY_DESCRIPTION =
  'Une personne peut demander, elle-même ou par son assistant : la désinscription de la newsletter, une copie de ce que l’agence garde de son adresse, ou l’effacement. Rien n’est fait sur la foi de la requête : un e-mail avec un lien signé, valable 7 jours et à usage unique, part vers l’adresse, et la demande n’est exécutée que lorsque la personne suit ce lien et appuie sur le bouton. La réponse est la même que l’adresse soit connue ou non.';
export const PRIVACY_ENGLISH =
  'Start a GDPR request for a person: kind unsubscribe (newsletter), access (a copy of the data held, by e-mail) or erasure; email; optional message. Nothing happens on the caller’s word: the address receives a signed single-use link (7 days) and the request runs only once the person follows it and presses the button. The answer is the same whether or not the address is known. Tell the person to look in their inbox.';

/** The request as an API action: its route, /openapi.json, /developers, the site's form and its tool. */
export const PRIVACY_ACTION: ApiAction = {
  kind: 'privacy',
  schema: PrivacyRequestSchema,
  schemaName: 'PrivacyRequest',
  path: PRIVACY_API_PATH,
  operationId: 'requestPrivacyAction',
  summary: PRIVACY_SUMMARY,
  description: PRIVACY_DESCRIPTION,
  thankYouPath: PRIVACY_THANK_YOU_PATH,
  tool: { name: PRIVACY_TOOL_NAME, english: PRIVACY_ENGLISH },
  example: PRIVACY_EXAMPLE,
  fields: { email: 'email' },
};
