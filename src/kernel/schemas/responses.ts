import { Type, type Static } from 'typebox';

/** docs/consent.md, "What the answer says": where an address stands after a subscription request. */
export const CONFIRMATION_STANDINGS = ['sent', 'already_sent', 'not_needed'] as const;

export const SuccessResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    existing: Type.Optional(
      Type.Boolean({
        title: 'l’adresse était déjà connue',
        description: 'true quand l’adresse était déjà connue (lettre, audit).',
      }),
    ),
    confirmation: Type.Optional(
      Type.Enum(CONFIRMATION_STANDINGS, {
        type: 'string',
        title: 'newsletter : le lien de confirmation envoyé, déjà envoyé ou inutile',
        description:
          'Newsletter seulement : où en est l’adresse. `sent` : un e-mail avec un lien de confirmation part maintenant, la personne n’est inscrite qu’après avoir cliqué ; `already_sent` : un lien lui a déjà été envoyé récemment (au plus un e-mail par adresse et par 24 heures) et attend son clic, dites-lui de regarder sa boîte de réception et ses indésirables ; `not_needed` : l’adresse est déjà inscrite et confirmée, ou aucune confirmation n’est demandée.',
        examples: ['sent'],
      }),
    ),
    warnings: Type.Optional(
      Type.Array(
        Type.Object(
          {
            code: Type.String({ description: 'Code stable de l’avertissement.' }),
            message: Type.String({ description: 'Ce qui a été remarqué, en français.' }),
            field: Type.Optional(Type.String({ description: 'Le champ concerné.' })),
          },
          { additionalProperties: false },
        ),
        {
          title:
            'audit : ce qui, enregistré, mérite vérification ; `question_matched` signale une question presque exacte, rangée sous la vraie',
          description:
            'Ce qui a été enregistré mais mérite d’être vérifié. Audit : `unknown_choice` (une réponse hors des choix proposés), `no_answers` (aucune réponse au questionnaire), `question_matched` (une clé presque égale à une question, rangée sous cette question). Ajout au contrat, toute demande : `email_typo` (le domaine de l’adresse ressemble à celui d’un grand fournisseur mal tapé, `gmial.com` pour `gmail.com` : le message propose l’adresse probable, à faire confirmer à la personne). Jamais un refus : la demande est enregistrée.',
        },
      ),
    ),
    reference: Type.Optional(
      Type.String({
        title: 'la référence de la demande, à citer à l’agence',
        description:
          'Ajout au contrat : la référence de la demande enregistrée, à citer à l’agence (la même pour une demande renvoyée à l’identique). Elle figure aussi dans l’e-mail de confirmation.',
        examples: ['019ac5e2-3f10-7a1b-9c2d-4e5f6a7b8c9d'],
      }),
    ),
    answerBy: Type.Optional(
      Type.String({
        title:
          'contact et audit : la date et l’heure de la réponse promise, en UTC, à dire en heure de Paris',
        description:
          'Ajout au contrat, contact et audit : la date et l’heure (ISO 8601, UTC) auxquelles l’agence aura répondu au plus tard, 24 heures ouvrées après la demande (jours ouvrés, jours fériés français exceptés, heures d’ouverture de l’agence, heure de Paris). À dire à la personne en heure de Paris, par exemple « lundi 30 novembre à 12 h ».',
        examples: ['2026-11-30T11:00:00.000Z'],
      }),
    ),
  },
  { additionalProperties: false, description: 'Demande enregistrée.' },
);
export type SuccessResponse = Static<typeof SuccessResponseSchema>;

/** Spec section 7, plus 413 and 429 (body and rate limits, which spec 8 leaves open); the status of each is below, its message and hint in error-catalog.ts. */
export const ERROR_CODES = [
  'invalid_json',
  'missing_field',
  'invalid_field',
  'not_found',
  'method_not_allowed',
  'idempotency_conflict',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'server_error',
  'upstream_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Spec section 7: each stable code with its HTTP status. Messages and hints are French and may change. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_json: 400,
  missing_field: 400,
  invalid_field: 400,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  server_error: 500,
  upstream_error: 502,
};

export const ErrorResponseSchema = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object(
      {
        code: Type.Enum(ERROR_CODES, {
          type: 'string',
          description: 'Code stable, à tester par les appelants.',
        }),
        message: Type.String({ description: 'Description lisible, en français.' }),
        hint: Type.String({ description: 'Comment corriger la demande ou que faire ensuite.' }),
        field: Type.Optional(
          Type.String({
            description:
              'Le champ à corriger, écrit comme l’appelant l’a envoyé (le premier, quand le message en nomme plusieurs). Absent quand l’erreur ne tient pas à un champ.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    errors: Type.Optional(
      Type.Array(
        Type.Object(
          {
            code: Type.Enum(['missing_field', 'invalid_field'] as const, { type: 'string' }),
            field: Type.String({ description: 'Le champ, écrit comme l’appelant l’a envoyé.' }),
            message: Type.String({ description: 'Ce qui ne va pas, en français.' }),
            hint: Type.String({ description: 'Comment corriger ce champ.' }),
          },
          { additionalProperties: false },
        ),
        {
          title:
            'tous les problèmes de la requête à la fois, chacun avec `field`, `message` et `hint` ; le `hint` de `error` se termine par le corps corrigé, à renvoyer tel quel une fois complété',
          description:
            'Ajout au contrat (400 missing_field et invalid_field) : tous les problèmes de la requête à la fois, le premier étant `error`, pour tout corriger en un seul essai. Le `hint` de `error` les corrige tous et, pour un corps JSON, se termine par le corps corrigé (chaque valeur envoyée gardée, `<à compléter : …>` là où seule la personne peut répondre).',
        },
      ),
    ),
  },
  { additionalProperties: false, description: 'Erreur.' },
);
export type ErrorResponse = Static<typeof ErrorResponseSchema>;
