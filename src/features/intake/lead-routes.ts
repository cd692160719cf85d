import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Intake, IntakeOutcome } from './intake.ts';
import {
  API_PREFIX,
  LEAD_KINDS,
  leadRequestOf,
  type LeadBody,
  type LeadData,
  type LeadKindDescriptor,
} from '../../kernel/schemas/lead-kinds.ts';
import { SuccessResponseSchema, type SuccessResponse } from '../../kernel/schemas/responses.ts';
import { compileSchema } from '../../kernel/schemas/compile-schema.ts';
import {
  isBrowserFormPost,
  isFormRequest,
  requireSupportedMediaType,
} from '../../kernel/http/body-parsers.ts';
import type { BotTrap } from './forms/bot-trap.ts';
import { apiErrors } from '../../kernel/schemas/error-catalog.ts';
import { idempotencyKeyOf } from './idempotency-key.ts';
import { bindLeadId } from '../../kernel/observability/logging.ts';
import { soonAfterListening } from '../../kernel/http/soon-after-listening.ts';
import type { ConsentEvidence } from '../../kernel/lead/consent.ts';

/** One POST per lead kind and its 405s, declared in the API plugin (its URLs are relative to /api). */
export function registerLeadRoutes(
  api: FastifyInstance,
  intake: Intake,
  botTrap: Pick<BotTrap, 'verdict'>,
  kinds: readonly LeadKindDescriptor[] = LEAD_KINDS,
): void {
  const refusedMethods = api.supportedMethods.filter(
    (method) => method !== 'POST' && method !== 'OPTIONS',
  );

  // src/kernel/schemas/compile-schema.ts: the validators compile off the start's path.
  soonAfterListening(api, () => kinds.forEach((endpoint) => compileSchema(endpoint.schema)));

  for (const endpoint of kinds) {
    const url = endpoint.path.slice(API_PREFIX.length);
    // The body's type is the schemas' own: Fastify has validated it before the handler runs.
    api.route<{ Body: LeadBody }>({
      method: 'POST',
      url,
      schema: { body: endpoint.schema, response: { 200: SuccessResponseSchema } },
      preValidation: requireSupportedMediaType,
      handler: async (request, reply) => {
        const { data, consent } = splitConsent(request);
        // docs/api-decisions.md, "Bot trap": a caught post is answered as any other below.
        const outcome = await intake.submit(leadRequestOf(endpoint, data), {
          callerKey: idempotencyKeyOf(request),
          consent,
          identified: (leadId) => bindLeadId(request, reply, leadId),
          spam: botTrap.verdict(request.body),
        });
        if (isBrowserFormPost(request)) return reply.redirect(endpoint.thankYouPath, 303);
        return successBody(endpoint, outcome);
      },
    });

    // Spec 7: any other method is a 405 that names the method and the path and lists what is allowed.
    api.route({
      method: refusedMethods,
      url,
      exposeHeadRoute: false,
      handler: async (request) => {
        throw apiErrors.methodNotAllowed(request.method, endpoint.path);
      },
    });
  }
}

/**
 * Spec 2.4: `existing` where the endpoint answers it; then the additions of docs/api-decisions.md:
 * the optional facts the intake found, the lead's reference and the answer's promised time.
 */
export function successBody(
  endpoint: LeadKindDescriptor,
  { existing, confirmation, warnings, reference, answerBy }: IntakeOutcome,
): SuccessResponse {
  return {
    success: true,
    ...(endpoint.answersExisting && { existing }),
    ...(confirmation && { confirmation }),
    ...(warnings?.length && { warnings }),
    reference,
    ...(answerBy && { answerBy: answerBy.toISOString() }),
  };
}

/**
 * Splits the consent declaration off the lead's fields (it is proof about the request, not part of
 * it: it never reaches the e-mails or the CRM) and adds what the server saw: a form post is the
 * site's form unless it says otherwise (the site's script posts JSON with `consent.channel` = form), a JSON call is the API; the client address after TRUST_PROXY.
 */
export function splitConsent(request: FastifyRequest<{ Body: LeadBody }>): {
  data: LeadData;
  consent: ConsentEvidence;
} {
  const { consent: declared, ...data } = request.body;
  const channel = declared?.channel ?? (isFormRequest(request) ? 'form' : 'api');
  return {
    data,
    consent: {
      channel,
      version: declared?.version,
      // The site's forms post from the page that showed the wording (same origin, so the Referer
      // carries its path; the query string is left out).
      page: declared?.page ?? (channel === 'form' ? refererPath(request) : undefined),
      clientAddress: request.ip,
    },
  };
}

function refererPath(request: FastifyRequest): string | undefined {
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).pathname.slice(0, 300);
  } catch {
    return undefined;
  }
}
