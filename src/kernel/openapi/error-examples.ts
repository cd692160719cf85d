import { apiErrors, type ApiError } from '../schemas/error-catalog.ts';
import { ERROR_STATUS } from '../schemas/responses.ts';
import { validationToApiError } from '../schemas/validation-errors.ts';
import { compileSchema } from '../schemas/compile-schema.ts';
import type { ApiAction } from '../schemas/lead-kinds.ts';
import type { ErrorCode } from '../schemas/responses.ts';

/** The answer the real validator gives to `body` on this endpoint. */
function validationAnswer(endpoint: ApiAction, body: object): ApiError {
  const validate = compileSchema(endpoint.schema);
  if (validate(body)) throw new Error(`${endpoint.path}: the example error body is valid`);
  const properties = (endpoint.schema as { properties?: object }).properties ?? {};
  return validationToApiError(validate.errors ?? [], {
    knownFields: Object.keys(properties),
    properties,
    person: endpoint.fields,
    body,
    repeatedFields: new Map(),
    example: endpoint.example,
  });
}

/** The example body with its e-mail field spelled in the other case: the commonest agent slip. */
function withMiscasedEmail(endpoint: ApiAction): object {
  const field = endpoint.fields.email;
  const miscased = field === field.toUpperCase() ? field.toLowerCase() : field.toUpperCase();
  return Object.fromEntries(
    Object.entries(endpoint.example).map(([name, value]) => [
      name === field ? miscased : name,
      value,
    ]),
  );
}

/**
 * The example body with two slips at once, its e-mail field misspelled and another required field
 * left out: the answer lists both in `errors` and its hint ends with the corrected body.
 */
function withTwoSlips(endpoint: ApiAction): object {
  const field = endpoint.fields.email;
  const misspelled = `${field.slice(0, -2)}${field.slice(-1)}${field.slice(-2, -1)}`;
  const required = (endpoint.schema as { required?: string[] }).required ?? [];
  const left = required.find((name) => name !== field);
  return Object.fromEntries(
    Object.entries(endpoint.example)
      .filter(([name]) => name !== left)
      .map(([name, value]) => [name === field ? misspelled : name, value]),
  );
}

/** Errors that do not depend on the endpoint, built by the same catalog the server answers with. */
const GENERAL_EXAMPLES: Partial<Record<ErrorCode, ApiError>> = {
  not_found: apiErrors.notFound('POST', '/api/contacts'),
  method_not_allowed: apiErrors.methodNotAllowed('GET', '/api/contact'),
  idempotency_conflict: apiErrors.idempotencyConflict('different_request'),
  payload_too_large: apiErrors.payloadTooLarge(65536),
  unsupported_media_type: apiErrors.unsupportedMediaType('text/plain'),
  rate_limited: apiErrors.rateLimited(42),
  server_error: apiErrors.serverError(),
  upstream_error: apiErrors.upstreamError(),
};

/** One example answer per error code an endpoint can give, as OpenAPI `examples` per status. */
export function errorExamples(endpoint: ApiAction): Map<number, Record<string, object>> {
  const answers: [string, ApiError][] = [
    ['invalid_json', apiErrors.invalidJson(endpoint.example)],
    ['missing_field', validationAnswer(endpoint, {})],
    ['invalid_field', validationAnswer(endpoint, withMiscasedEmail(endpoint))],
    ['several_problems', validationAnswer(endpoint, withTwoSlips(endpoint))],
    ...Object.entries(GENERAL_EXAMPLES).map(([code, error]): [string, ApiError] => [code, error]),
  ];
  const byStatus = new Map<number, Record<string, object>>();
  for (const [name, error] of answers) {
    const status = ERROR_STATUS[error.code];
    byStatus.set(status, {
      ...byStatus.get(status),
      [name]: { summary: error.code, value: error.toResponse() },
    });
  }
  return byStatus;
}
