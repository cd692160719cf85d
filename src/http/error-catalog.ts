import type { ErrorCode, ErrorResponse } from '../schemas/responses.ts';

const OPENAPI_HINT = 'La description complète des champs est publiée sur /openapi.json.';

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

/** An answer the API gives on purpose; the error handler turns it into the ErrorResponse shape. */
export class ApiError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
  }

  toResponse(): ErrorResponse {
    return { success: false, error: { code: this.code, message: this.message, hint: this.hint } };
  }
}

export const apiErrors = {
  invalidJson: (detail = 'Le corps de la requête n’est pas un JSON valide.') =>
    new ApiError(
      'invalid_json',
      detail,
      `Envoyez un objet JSON bien formé, par exemple {"email": "marie@example.fr"}. ${OPENAPI_HINT}`,
    ),
  missingField: (field: string) =>
    new ApiError(
      'missing_field',
      `Le champ obligatoire « ${field} » est absent ou vide.`,
      `Ajoutez le champ « ${field} » au corps JSON de la requête. ${OPENAPI_HINT}`,
    ),
  invalidField: (field: string, problem: string, hint: string) =>
    new ApiError(
      'invalid_field',
      `Le champ « ${field} » n’est pas valide : ${problem}.`,
      `${hint} ${OPENAPI_HINT}`,
    ),
  notFound: (method: string, path: string) =>
    new ApiError(
      'not_found',
      `Aucun point d’accès ne répond à ${method} ${path}.`,
      'Les points d’accès sont POST /api/contact, POST /api/subscribe et POST /api/audit ; voir /openapi.json.',
    ),
  methodNotAllowed: (method: string, path: string) =>
    new ApiError(
      'method_not_allowed',
      `La méthode ${method} n’est pas acceptée sur ${path}.`,
      `Envoyez la requête en POST (OPTIONS reste possible pour CORS). ${OPENAPI_HINT}`,
      { allow: 'POST, OPTIONS' },
    ),
  // Issue 4: the same Idempotency-Key with another body, or still held by a request in progress.
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
      { 'retry-after': String(retryAfterSeconds) },
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
