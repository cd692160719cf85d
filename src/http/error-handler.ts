import type { FastifyError, FastifyInstance } from 'fastify';
import { ConfigurationError, IdempotencyConflictError, UpstreamError } from '../domain/errors.ts';
import { ApiError, apiErrors } from './error-catalog.ts';
import { validationToApiError } from './validation-errors.ts';

interface ErrorContext {
  bodyLimit: number;
  contentType: string | undefined;
}

/** Every failure, whatever threw it, leaves as the ErrorResponse shape of spec 2.5 — never a stack trace. */
export function toApiError(error: FastifyError | Error, context: ErrorContext): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof UpstreamError) return apiErrors.upstreamError();
  if (error instanceof ConfigurationError) return apiErrors.serverError();
  if (error instanceof IdempotencyConflictError) return apiErrors.idempotencyConflict(error.reason);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return validationToApiError(fastifyError.validation as never);
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return apiErrors.unsupportedMediaType(context.contentType);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return apiErrors.payloadTooLarge(context.bodyLimit);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return apiErrors.invalidJson();
  }
  return apiErrors.serverError();
}

export function registerErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const apiError = toApiError(error, { bodyLimit, contentType: request.headers['content-type'] });
    if (apiError.statusCode >= 500) request.log.error({ err: error }, `answered ${apiError.code}`);
    return reply
      .code(apiError.statusCode)
      .headers(apiError.headers)
      .type('application/json; charset=utf-8')
      .send(apiError.toResponse());
  });
}
