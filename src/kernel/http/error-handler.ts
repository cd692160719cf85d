import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigurationError, IdempotencyConflictError, UpstreamError } from '../lead/errors.ts';
import { leadKindAt } from '../schemas/lead-kinds.ts';
import { ApiError, apiErrors } from '../schemas/error-catalog.ts';
import type { JournalHealth } from './journal-health.ts';
import { repeatedFieldsOf } from './form-body.ts';
import { validationToApiError } from '../schemas/validation-errors.ts';
import { PRIVACY_ACTION, PRIVACY_API_PATH } from '../schemas/privacy-request.ts';

interface ErrorContext {
  bodyLimit: number;
  request: FastifyRequest;
}

/** The example body of the endpoint a request was sent to, for an invalid_json hint that fits it. */
export function exampleFor(request: FastifyRequest): object | undefined {
  return leadKindAt(request.url.split('?')[0] ?? request.url)?.example;
}

function propertiesOf(request: FastifyRequest): object {
  const body = request.routeOptions.schema?.body as { properties?: object } | undefined;
  return body?.properties ?? {};
}

/** What the domain's typed errors mean to a caller, for REST and MCP alike (spec 7). */
export function domainErrorToApiError(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof UpstreamError) return apiErrors.upstreamError();
  if (error instanceof ConfigurationError) return apiErrors.serverError();
  if (error instanceof IdempotencyConflictError) return apiErrors.idempotencyConflict(error.reason);
  return undefined;
}

/** Every failure, whatever threw it, leaves as the ErrorResponse shape of spec 2.5 — never a stack trace. */
export function toApiError(
  error: FastifyError | Error,
  { bodyLimit, request }: ErrorContext,
): ApiError {
  const known = domainErrorToApiError(error);
  if (known) return known;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    const path = request.url.split('?')[0] ?? request.url;
    const kind = leadKindAt(path);
    const properties = propertiesOf(request);
    return validationToApiError(fastifyError.validation as never, {
      knownFields: Object.keys(properties),
      properties,
      person: (kind ?? (path === PRIVACY_API_PATH ? PRIVACY_ACTION : undefined))?.fields,
      repeatedFields: repeatedFieldsOf(request.body),
      example: exampleFor(request),
      body: request.body,
      questionnaire: kind?.questionnaire,
      // body-parsers.ts imports this file: the form's media type is read here (no cycle).
      medium: /^application\/x-www-form-urlencoded\b/i.test(request.headers['content-type'] ?? '')
        ? 'form'
        : 'json',
    });
  }
  switch (fastifyError.code) {
    // FST_ERR_ROUTE_MISSING_CONTENT_TYPE: a method Fastify reads a body for (QUERY) sent without
    // Content-Type, refused before any route: a client's mistake (spec 7: 415), never a 500.
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE':
      return apiErrors.unsupportedMediaType(request.headers['content-type']);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      // A route may set its own limit (docs/inbound.md: INBOUND_MAX_BYTES).
      return apiErrors.payloadTooLarge(request.routeOptions.bodyLimit ?? bodyLimit);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiErrors.invalidJson(exampleFor(request));
  }
  return apiErrors.serverError();
}

export function registerErrorHandler(
  app: FastifyInstance,
  bodyLimit: number,
  /** A journal refusing writes is one line per cause, not a stack trace per request. */
  journal?: JournalHealth,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, { bodyLimit, request });
    // A provider's failure is 502 (spec 7): only a 500 may be the journal's.
    const journals = apiError.statusCode === 500 && journal?.failed(error);
    if (apiError.statusCode >= 500 && !journals) {
      request.log.error({ err: error }, `answered ${apiError.code}`);
    }
    return reply
      .code(apiError.statusCode)
      .headers(apiError.headers)
      .type('application/json; charset=utf-8')
      .send(apiError.toResponse());
  });
}
