import { ERROR_STATUS } from '../schemas/responses.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../schemas/idempotency-key.ts';
import { answerFieldsSentence } from '../schemas/answer-fields.ts';
import { apiEndpoints } from '../schemas/api-endpoints.ts';
import {
  endpointCount,
  inFrenchWords,
  LEAD_KINDS,
  type ApiAction,
  type LeadKindDescriptor,
} from '../schemas/lead-kinds.ts';
import { PRIVACY_ACTION, PrivacyResponseSchema } from '../schemas/privacy-request.ts';
import { ErrorResponseSchema, SuccessResponseSchema } from '../schemas/responses.ts';
import { errorExamples } from './error-examples.ts';

/**
 * Error statuses each endpoint can answer (spec 4: 400, 405, 415, 500, 502; docs/reliability.md adds 409 for
 * Idempotency-Key conflicts and 413 and 429 for the limits).
 */
const OPERATION_ERROR_STATUSES = [400, 405, 409, 413, 415, 429, 500, 502] as const;

/** docs/reliability.md: retries without duplicates. */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Clé choisie par l’appelant (un UUID par exemple) pour renvoyer sans risque une même demande. Pendant 24 heures, la même clé avec le même corps renvoie la réponse de la première demande sans nouvel envoi ; la même clé avec un autre corps donne 409 idempotency_conflict. Après une erreur 502, renvoyer la demande avec la même clé retente la transmission de la même demande, sans doublon.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
  example: '5f0c7a52-8d1e-4c56-9b7e-2a4f3e1d9c10',
};

function codesFor(status: number): string[] {
  return Object.entries(ERROR_STATUS)
    .filter(([, code]) => code === status)
    .map(([name]) => name);
}

function errorResponse(status: number, examples: Record<string, object> | undefined) {
  return {
    description:
      status === 502
        ? `Mode synchrone seulement (DELIVERY=sync) : le prestataire d’envoi a échoué ; la demande est enregistrée et sera transmise plus tard. error.code vaut ${codesFor(status).join(' ou ')}.`
        : `Erreur ; error.code vaut ${codesFor(status).join(' ou ')}.`,
    ...(status === 405 && {
      headers: {
        Allow: {
          description: 'Méthodes acceptées.',
          schema: { type: 'string', const: 'POST, OPTIONS' },
        },
      },
    }),
    ...(status === 429 && {
      headers: {
        'Retry-After': { description: 'Secondes à attendre.', schema: { type: 'integer' } },
      },
    }),
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/ErrorResponse' },
        ...(examples && { examples }),
      },
    },
  };
}

/** A free-keyed object field of a form travels as bracket keys: formData[Question]=Réponse. */
function formEncoding(properties: object) {
  const objects = Object.entries(properties)
    .filter(([, schema]) => (schema as { patternProperties?: unknown }).patternProperties)
    .map(([name]) => name);
  if (objects.length === 0) return {};
  return {
    encoding: Object.fromEntries(
      objects.map((name) => [name, { style: 'deepObject', explode: true }]),
    ),
  };
}

const LEADS_TAG = 'Demandes';
const PRIVACY_TAG = 'Vos données';

interface OperationShape {
  tag: string;
  parameters: object[];
  statuses: readonly number[];
  success: { description: string; schema: string; examples?: Record<string, object> };
}

/** One POST of the API: its body in JSON and as a form, its answer, its 303 and its errors. */
function operation(action: ApiAction, shape: OperationShape) {
  const schema = { $ref: `#/components/schemas/${action.schemaName}` };
  const examples = errorExamples(action);
  return {
    post: {
      operationId: action.operationId,
      parameters: shape.parameters,
      summary: action.summary,
      description: action.description,
      tags: [shape.tag],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema },
          'application/x-www-form-urlencoded': {
            schema,
            ...formEncoding(action.schema.properties),
          },
        },
      },
      responses: {
        200: {
          description: shape.success.description,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${shape.success.schema}` },
              ...(shape.success.examples && { examples: shape.success.examples }),
            },
          },
        },
        303: {
          description:
            'Formulaire HTML envoyé sans l’en-tête Accept: application/json : redirection vers la page de remerciement.',
          headers: {
            Location: {
              description: 'Page de remerciement.',
              schema: { type: 'string', const: action.thankYouPath },
            },
          },
        },
        ...Object.fromEntries(
          shape.statuses.map((status) => [status, errorResponse(status, examples.get(status))]),
        ),
      },
    },
  };
}

/**
 * OpenAPI 3.1 speaks JSON Schema natively, so the document embeds the very schema objects Fastify
 * validates with: the published contract cannot drift from the code.
 */
export function buildOpenApiDocument(
  siteUrl: string,
  kinds: readonly LeadKindDescriptor[] = LEAD_KINDS,
) {
  const paths = Object.fromEntries([
    ...kinds.map((endpoint) => [
      endpoint.path,
      operation(endpoint, {
        tag: LEADS_TAG,
        parameters: [IDEMPOTENCY_KEY_PARAMETER],
        statuses: OPERATION_ERROR_STATUSES,
        success: {
          description:
            'Demande enregistrée : elle est écrite sur disque avant la réponse, puis transmise (aussitôt, et à nouveau plus tard en cas d’échec du prestataire).',
          schema: 'SuccessResponse',
        },
      }),
    ]),
    // docs/consent.md, "Requests about one's data": no Idempotency-Key (a repeat only sends the
    // same link, within the per-mailbox cap), so no 409.
    [
      PRIVACY_ACTION.path,
      operation(PRIVACY_ACTION, {
        tag: PRIVACY_TAG,
        parameters: [],
        statuses: OPERATION_ERROR_STATUSES.filter((status) => status !== 409),
        success: {
          description:
            'Demande enregistrée, en attente de confirmation : un lien part vers l’adresse. La même réponse que l’adresse soit connue ou non.',
          schema: 'PrivacyResponse',
          examples: {
            sent: { summary: 'Lien envoyé', value: { success: true, confirmation: 'sent' } },
            already_sent: {
              summary: 'Un lien déjà parti dans les 24 heures',
              value: { success: true, confirmation: 'already_sent' },
            },
          },
        },
      }),
    ],
  ]);

  return {
    openapi: '3.1.0',
    info: {
      title: 'API publique de demandes de l’agence',
      version: '1.0.0',
      summary:
        'Demande de contact ou de diagnostic gratuit, inscription à la lettre, audit sectoriel.',
      description: `${endpointCount(apiEndpoints(kinds), { capitalized: true })} sans authentification. Corps en JSON (Content-Type: application/json) ou en formulaire HTML (application/x-www-form-urlencoded ; un champ répété est joint par une virgule). Un champ vide compte comme absent : obligatoire, il donne missing_field. Réponses en JSON, erreurs comprises, avec un code stable. ${answerFieldsSentence()} Règle de consentement : n’envoyez une demande qu’avec l’accord explicite de la personne concernée, sur le texte de consentement de la demande (voir la propriété consent de chaque corps : la version actuelle y est citée mot pour mot) ; indiquez la version acceptée dans consent.version et, pour un assistant IA, consent.channel = agent. Chaque demande est enregistrée avec cette preuve (empreinte SHA-256 du texte, date, canal, réseau d’origine tronqué). Page lisible : /developers.`,
      contact: { name: 'Agence', url: `${siteUrl}/contact` },
      license: { name: 'Usage public de l’interface', url: `${siteUrl}/developers` },
    },
    servers: [{ url: siteUrl }],
    security: [],
    tags: [
      {
        name: LEADS_TAG,
        description: `Les ${inFrenchWords(kinds.length)} actions possibles sans passer par le site.`,
      },
      {
        name: PRIVACY_TAG,
        description:
          'Désinscription, copie ou effacement des données d’une adresse (RGPD), confirmés par la personne depuis le lien reçu par e-mail.',
      },
    ],
    paths,
    components: {
      schemas: {
        ...Object.fromEntries(kinds.map((endpoint) => [endpoint.schemaName, endpoint.schema])),
        [PRIVACY_ACTION.schemaName]: PRIVACY_ACTION.schema,
        SuccessResponse: SuccessResponseSchema,
        PrivacyResponse: PrivacyResponseSchema,
        ErrorResponse: ErrorResponseSchema,
      },
    },
  };
}
