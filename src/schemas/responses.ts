import { Type, type Static } from 'typebox';

export const SuccessResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    existing: Type.Optional(
      Type.Boolean({ description: 'true quand l’adresse était déjà connue (lettre, audit).' }),
    ),
  },
  { additionalProperties: false, description: 'Demande enregistrée.' },
);
export type SuccessResponse = Static<typeof SuccessResponseSchema>;

/** Spec section 7, plus 413 and 429 (body and rate limits, which spec 8 leaves open); the status, message and hint of each live in src/http/error-catalog.ts. */
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
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false, description: 'Erreur.' },
);
export type ErrorResponse = Static<typeof ErrorResponseSchema>;
