import { frenchList } from './french-text.ts';
import { LEAD_KINDS } from './lead-kinds.ts';
import { PRIVACY_API_PATH } from './privacy-request.ts';
import { ERROR_STATUS, type ErrorCode, type ErrorResponse } from './responses.ts';

const OPENAPI_HINT = 'La description complète des champs est publiée sur /openapi.json.';

/** One problem of a request, in the `errors` list of a 400 (docs/api-decisions.md). */
export interface FieldError {
  code: 'missing_field' | 'invalid_field';
  field: string;
  message: string;
  hint: string;
}

interface ApiErrorOptions {
  headers?: Record<string, string>;
  /** The field to fix, spelled as the caller sent it (docs/api-decisions.md, "Errors an agent can act on"). */
  field?: string;
  /** Every problem of the request, the first being the error itself. */
  errors?: readonly FieldError[];
}

/**
 * How a caller sends a request: a JSON body, an HTML form, or the arguments of an MCP tool. A hint
 * speaks of what the caller wrote (docs/agents.md: a tool's caller has arguments, not a body).
 */
export type Medium = 'json' | 'form' | 'tool';

/** What the caller names its values: the fields of a body or a form, or a tool's arguments. */
export const FIELD_WORDS: Record<Medium, { one: string; many: string; theOne: string }> = {
  json: { one: 'champ', many: 'champs', theOne: 'le champ' },
  form: { one: 'champ', many: 'champs', theOne: 'le champ' },
  tool: { one: 'argument', many: 'arguments', theOne: 'l’argument' },
};

/** Where every field is described, for the caller's way in. */
export const SCHEMA_HINT: Record<Medium, string> = {
  json: OPENAPI_HINT,
  form: OPENAPI_HINT,
  tool: 'Le schéma d’entrée de l’outil (tools/list) décrit chaque argument.',
};

const ADD_TO: Record<Medium, string> = {
  json: 'au corps JSON de la requête',
  // Spec 7: the hint of missing_field speaks of the JSON body; a form carries the same fields.
  form: 'au corps JSON de la requête',
  tool: 'aux arguments de l’outil',
};

const ENDPOINT_LIST = frenchList(
  [...LEAD_KINDS.map((kind) => kind.path), PRIVACY_API_PATH].map((path) => `POST ${path}`),
);

/** An answer the API gives on purpose; the error handler turns it into the ErrorResponse shape. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly field: string | undefined;
  readonly errors: readonly FieldError[] | undefined;
  constructor(code: ErrorCode, message: string, hint: string, options: ApiErrorOptions = {}) {
    // An answer given on purpose needs no stack trace, and capturing one is paid on every 429 of a
    // flood (docs/performance.md).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = stackTraceLimit;
    this.code = code;
    this.hint = hint;
    this.statusCode = ERROR_STATUS[code];
    this.headers = options.headers ?? {};
    this.field = options.field;
    this.errors = options.errors;
  }

  toResponse(): ErrorResponse {
    const { code, message, hint, field, errors } = this;
    return {
      success: false,
      error: { code, message, hint, ...(field !== undefined && { field }) },
      ...(errors !== undefined && { errors: [...errors] }),
    };
  }
}

/** « a », « b » et « c »: field names in a French sentence. */
export function quoteList(names: readonly string[]): string {
  const quoted = names.map((name) => `« ${name} »`);
  return quoted.length > 1
    ? `${quoted.slice(0, -1).join(', ')} et ${quoted[quoted.length - 1]}`
    : (quoted[0] ?? '');
}

export const apiErrors = {
  /** `example` is a complete valid body of the endpoint called, so the hint can be sent as is. */
  invalidJson: (
    example: object | undefined,
    detail = 'Le corps de la requête n’est pas un JSON valide.',
  ) =>
    new ApiError(
      'invalid_json',
      detail,
      example
        ? `Envoyez un objet JSON bien formé, par exemple ${JSON.stringify(example)} ${OPENAPI_HINT}`
        : `Envoyez un objet JSON bien formé. ${OPENAPI_HINT}`,
    ),
  /** Every missing field at once, in the order a caller should read them (spec 7 rule 1). */
  missingFields: (fields: readonly [string, ...string[]], medium: Medium = 'json') =>
    new ApiError(
      'missing_field',
      fields.length === 1
        ? `Le champ obligatoire « ${fields[0]} » est absent ou vide.`
        : `Les champs obligatoires ${quoteList(fields)} sont absents ou vides.`,
      `Ajoutez ${fields.length === 1 ? FIELD_WORDS[medium].theOne : `les ${FIELD_WORDS[medium].many}`} ${quoteList(fields)} ${ADD_TO[medium]}. ${SCHEMA_HINT[medium]}`,
      { field: fields[0] },
    ),
  invalidField: (field: string, problem: string, hint: string, medium: Medium = 'json') =>
    new ApiError(
      'invalid_field',
      // A problem that asks (« vouliez-vous dire … ? ») ends the sentence itself.
      `Le champ « ${field} » n’est pas valide : ${problem}${problem.endsWith('?') ? '' : '.'}`,
      `${hint} ${SCHEMA_HINT[medium]}`,
      { field },
    ),
  notFound: (method: string, path: string) =>
    new ApiError(
      'not_found',
      `Aucun point d’accès ne répond à ${method} ${path}.`,
      `Les points d’accès sont ${ENDPOINT_LIST} ; voir /openapi.json.`,
    ),
  methodNotAllowed: (method: string, path: string) =>
    new ApiError(
      'method_not_allowed',
      `La méthode ${method} n’est pas acceptée sur ${path}.`,
      `Envoyez la requête en POST (OPTIONS reste possible pour CORS). ${OPENAPI_HINT}`,
      { headers: { allow: 'POST, OPTIONS' } },
    ),
  /**
   * GET or DELETE on /mcp (docs/agents.md): a stateless server opens no stream and keeps no session,
   * so 405 as the MCP transport allows (an MCP client then goes on with POSTs); whoever opened the
   * address by hand learns what it is and how to use it.
   */
  mcpMethodNotAllowed: (method: string, tools: readonly string[]) =>
    new ApiError(
      'method_not_allowed',
      `${method} /mcp : ce serveur MCP (Streamable HTTP, sans session) n’ouvre pas de flux et ne garde pas de session ; il répond aux messages JSON-RPC envoyés en POST.`,
      `Branchez un client MCP sur cette adresse, ou envoyez en POST un message JSON-RPC (Content-Type: application/json, Accept: application/json, text/event-stream) : initialize, puis tools/list et tools/call. Outils : ${tools.join(', ')}. Fiche du serveur : /.well-known/mcp/server-card.json. Les mêmes actions en HTTP simple : /llms.txt et /openapi.json.`,
      { headers: { allow: 'POST, OPTIONS' } },
    ),
  // docs/reliability.md: the same Idempotency-Key with another body, or still held by a request in progress.
  idempotencyConflict: (reason: 'different_request' | 'in_progress') =>
    reason === 'different_request'
      ? new ApiError(
          'idempotency_conflict',
          'Cette clé Idempotency-Key a déjà servi pour une autre demande.',
          'Une clé désigne une seule demande pendant 24 heures : générez une nouvelle clé (un UUID par exemple) pour une demande différente.',
        )
      : new ApiError(
          'idempotency_conflict',
          'Une demande portant la même clé Idempotency-Key est encore en cours de traitement.',
          'Réessayez dans quelques secondes avec la même clé : la réponse de la première demande vous sera renvoyée.',
        ),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(
      'payload_too_large',
      `Le corps de la requête dépasse ${limitBytes} octets.`,
      'Raccourcissez les textes envoyés ; les limites de chaque champ sont publiées sur /openapi.json.',
    ),
  unsupportedMediaType: (contentType: string | undefined) =>
    new ApiError(
      'unsupported_media_type',
      contentType
        ? `Le type de contenu « ${contentType} » n’est pas accepté.`
        : 'La requête n’indique pas de type de contenu (en-tête Content-Type absent).',
      'Envoyez l’en-tête Content-Type: application/json et un objet JSON dans le corps (un formulaire HTML application/x-www-form-urlencoded est aussi accepté).',
    ),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(
      'rate_limited',
      'Trop de demandes envoyées depuis cette adresse en peu de temps.',
      `Réessayez dans ${retryAfterSeconds} secondes.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    ),
  serverError: () =>
    new ApiError(
      'server_error',
      'Une erreur interne empêche de traiter la demande.',
      'Réessayez dans quelques minutes ; si le problème persiste, écrivez directement à l’agence.',
    ),
  upstreamError: () =>
    new ApiError(
      'upstream_error',
      'Le service d’envoi de l’agence n’a pas répondu correctement ; la demande n’a pas pu être transmise.',
      'Réessayez dans quelques instants. Si vous renvoyez la demande avec le même en-tête Idempotency-Key, la nouvelle tentative est sans risque : elle ne crée pas de doublon.',
    ),
};
