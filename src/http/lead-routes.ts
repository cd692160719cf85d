import accepts from 'accepts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IdempotentIntake } from '../domain/idempotent-intake.ts';
import type { LeadRequest } from '../domain/lead.ts';
import { LEAD_ENDPOINTS } from '../schemas/endpoints.ts';
import { SuccessResponseSchema } from '../schemas/responses.ts';
import { isFormRequest, requireSupportedMediaType } from './body-parsers.ts';
import { apiErrors } from './error-catalog.ts';
import { idempotencyKeyOf } from './idempotency-key.ts';

export const THANK_YOU_PATH = '/contact/merci';

/** Spec 4 rule 4: a browser form without JavaScript is redirected; anyone asking for JSON gets JSON. */
function wantsRedirect(request: FastifyRequest): boolean {
  return (
    isFormRequest(request) &&
    accepts(request.raw).type(['text/html', 'application/json']) !== 'application/json'
  );
}

export function registerLeadRoutes(app: FastifyInstance, intake: IdempotentIntake): void {
  const refusedMethods = app.supportedMethods.filter(
    (method) => method !== 'POST' && method !== 'OPTIONS',
  );

  for (const endpoint of LEAD_ENDPOINTS) {
    app.route({
      method: 'POST',
      url: endpoint.path,
      schema: { body: endpoint.schema, response: { 200: SuccessResponseSchema } },
      preValidation: requireSupportedMediaType,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const outcome = await intake.submit(
          { kind: endpoint.kind, data: request.body } as LeadRequest,
          idempotencyKeyOf(request),
        );
        if (wantsRedirect(request)) return reply.redirect(THANK_YOU_PATH, 303);
        return endpoint.kind === 'contact'
          ? { success: true }
          : { success: true, existing: outcome.existing };
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
