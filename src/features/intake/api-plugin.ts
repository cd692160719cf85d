import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Intake } from './intake.ts';
import { apiErrors } from '../../kernel/schemas/error-catalog.ts';
import {
  API_PREFIX,
  LEAD_KINDS,
  type LeadKindDescriptor,
} from '../../kernel/schemas/lead-kinds.ts';
import { ignoreBodies, registerBodyParsers } from '../../kernel/http/body-parsers.ts';
import type { BotTrap } from './forms/bot-trap.ts';
import { formErrorHandler } from './forms/form-error-answer.ts';
import type { FormPages } from './forms/form-pages.ts';
import { registerLeadRoutes } from './lead-routes.ts';
import { registerRateLimit, type RateLimitSettings } from '../../kernel/http/limits/rate-limit.ts';

export interface ApiOptions {
  intake: Intake;
  bodyLimit: number;
  rateLimit: RateLimitSettings;
  /**
   * Catches the site's form posts sent by bots, and signs the token of a refused form's page
   * (docs/api-decisions.md, "Bot trap").
   */
  botTrap: Pick<BotTrap, 'verdict' | 'issue'>;
  /** The site's forms, for a browser's form post that fails validation (docs/api-decisions.md). */
  formPages?: FormPages;
  kinds?: readonly LeadKindDescriptor[];
  /**
   * Routes of another feature (src/features/privacy/), declared inside the plugin so they get
   * its parsers, rate limit, error mapping and not-found answer (docs/architecture.md).
   */
  routes?: readonly ((api: FastifyInstance) => void)[];
}

/**
 * The lead-intake API of the spec, one encapsulated plugin under /api (docs/architecture.md, "The
 * API plugin"): what is set here (body parsers, rate limit, error handler, not-found answer) holds
 * for its routes only, and nothing outside it reads a body as a lead or limits a page.
 */
const api: FastifyPluginAsync<ApiOptions> = async (scope, options) => {
  registerBodyParsers(scope);
  // Spec 4 rule 4: a browser's form post that fails validation gets its page back; any other error
  // goes on to the app's error handler (the ErrorResponse of spec 2.5).
  scope.setErrorHandler(formErrorHandler(options.formPages, options.bodyLimit, options.botTrap));
  await registerRateLimit(scope, options.rateLimit);
  registerLeadRoutes(scope, options.intake, options.botTrap, options.kinds ?? LEAD_KINDS);
  for (const routes of options.routes ?? []) routes(scope);
  await scope.register(notFoundAnswer);
};

/** Spec 7: `/api` and any unknown path under it is a JSON not_found, whatever its body says. */
async function notFoundAnswer(scope: FastifyInstance): Promise<void> {
  ignoreBodies(scope);
  scope.setNotFoundHandler(async (request) => {
    throw apiErrors.notFound(request.method, request.url.split('?')[0] ?? request.url);
  });
}

/** Registers the API under /api; a new API route is declared in the `api` plugin above. */
export async function registerApi(app: FastifyInstance, options: ApiOptions): Promise<void> {
  await app.register(api, { prefix: API_PREFIX, ...options });
}
