import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigurationError, IdempotencyConflictError, UpstreamError } from '../lead/errors.ts';
import { leadKindAt } from '../schemas/lead-kinds.ts';
import { ApiError, apiErrors } from '../schemas/error-catalog.ts';
import { repeatedFieldsOf } from './form-body.ts';
import { validationToApiError } from '../schemas/validation-errors.ts';

interface ErrorContext {
  bodyLimit: number;
  request: FastifyRequest;
}

/** The example body of the endpoint a request was sent to, for an invalid_json hint that fits it. */
export function exampleFor(request: FastifyRequest): object | undefined {
  return leadKindAt(request.url.split('?')[0] ?? request.url)?.example;
}

function knownFieldsOf(request: FastifyRequest): string[] {
  const body = request.routeOptions.schema?.body as { properties?: object } | undefined;
  return Object.keys(body?.properties ?? {});
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
    const kind = leadKindAt(request.url.split('?')[0] ?? request.url);
    return validationToApiError(fastifyError.validation as never, {
      knownFields: knownFieldsOf(request),
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
      return apiErrors.payloadTooLarge(bodyLimit);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiErrors.invalidJson(exampleFor(request));
  }
  return apiErrors.serverError();
}

export function registerErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, { bodyLimit, request });
    if (apiError.statusCode >= 500) request.log.error({ err: error }, `answered ${apiError.code}`);
    return reply
      .code(apiError.statusCode)
      .headers(apiError.headers)
      .type('application/json; charset=utf-8')
      .send(apiError.toResponse());
  });
}
