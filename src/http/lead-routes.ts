import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Intake } from '../domain/intake.ts';
import { LEAD_KINDS, type LeadKindDescriptor, type LeadRequest } from '../schemas/lead-kinds.ts';
import { SuccessResponseSchema } from '../schemas/responses.ts';
import { isBrowserFormPost, requireSupportedMediaType } from './body-parsers.ts';
import { splitConsent } from './consent-evidence.ts';
import { apiErrors } from '../schemas/error-catalog.ts';
import { formErrorHandler } from './form-error-answer.ts';
import type { FormPages } from './form-pages.ts';
import { idempotencyKeyOf } from './idempotency-key.ts';

export function registerLeadRoutes(
  app: FastifyInstance,
  intake: Intake,
  {
    formPages,
    bodyLimit,
    kinds = LEAD_KINDS,
  }: { formPages?: FormPages; bodyLimit: number; kinds?: readonly LeadKindDescriptor[] },
): void {
  const refusedMethods = app.supportedMethods.filter(
    (method) => method !== 'POST' && method !== 'OPTIONS',
  );

  for (const endpoint of kinds) {
    app.route({
      method: 'POST',
      url: endpoint.path,
      schema: { body: endpoint.schema, response: { 200: SuccessResponseSchema } },
      preValidation: requireSupportedMediaType,
      errorHandler: formErrorHandler(formPages, bodyLimit),
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { data, consent } = splitConsent(request);
        const outcome = await intake.submit(
          { kind: endpoint.kind, data } as LeadRequest,
          idempotencyKeyOf(request),
          consent,
        );
        if (isBrowserFormPost(request)) return reply.redirect(endpoint.thankYouPath, 303);
        return endpoint.answersExisting
          ? { success: true, existing: outcome.existing }
          : { success: true };
      },
    });

    // Spec 7: any other method is a 405 that names the method and the path and lists what is allowed.
    app.route({
      method: refusedMethods,
      url: endpoint.path,
      exposeHeadRoute: false,
      handler: async (request) => {
        throw apiErrors.methodNotAllowed(request.method, endpoint.path);
      },
    });
  }
}
