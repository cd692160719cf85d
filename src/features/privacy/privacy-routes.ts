import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  isBrowserFormPost,
  isFormRequest,
  requireSupportedMediaType,
} from '../../kernel/http/body-parsers.ts';
import { answerLinkPage, linkPageHtml, tokenOf } from '../newsletter/index.ts';
import { readManifest } from '../../kernel/http/site/site-files.ts';
import { apiErrors } from '../../kernel/schemas/error-catalog.ts';
import { API_PREFIX } from '../../kernel/schemas/lead-kinds.ts';
import { LINK_TOKEN_PARAMETER } from '../../kernel/schemas/newsletter-pages.ts';
import {
  PRIVACY_CONFIRM_PATH,
  PRIVACY_PAGES,
  type PrivacyPageState,
} from '../../kernel/schemas/privacy-pages.ts';
import {
  PRIVACY_API_PATH,
  PRIVACY_THANK_YOU_PATH,
  PrivacyRequestSchema,
  PrivacyResponseSchema,
  type PrivacyRequestBody,
} from '../../kernel/schemas/privacy-request.ts';
import type { SharedLimit } from '../../kernel/http/limits/rate-limit.ts';
import type { Privacy } from './privacy-service.ts';

/**
 * POST /api/privacy, declared inside the API plugin (its parsers, rate limit and errors); a
 * browser's form post gets the 303 of spec 4 rule 4 to /vos-donnees/merci, anything else the JSON
 * answer.
 */
export function privacyApiRoutes(privacy: Privacy, limit: SharedLimit = async () => 0) {
  return (api: FastifyInstance): void => {
    const url = PRIVACY_API_PATH.slice(API_PREFIX.length);
    api.route<{ Body: PrivacyRequestBody }>({
      method: 'POST',
      url,
      schema: { body: PrivacyRequestSchema, response: { 200: PrivacyResponseSchema } },
      preValidation: requireSupportedMediaType,
      handler: async (request, reply) => {
        // A form post is the site's form, whether the browser sends it or forms.js does (asking
        // for JSON), as for a lead's consent channel (src/features/intake/lead-routes.ts).
        const channel = isFormRequest(request) ? 'form' : 'api';
        // One per-client counter for the API, the form and the MCP tool (rate-limit.ts).
        const wait = await limit(request.ip);
        if (wait > 0) throw apiErrors.rateLimited(wait);
        const answer = await privacy.request(request.body, channel);
        return isBrowserFormPost(request) ? reply.redirect(PRIVACY_THANK_YOU_PATH, 303) : answer;
      },
    });
    api.route({
      method: api.supportedMethods.filter((method) => method !== 'POST' && method !== 'OPTIONS'),
      url,
      exposeHeadRoute: false,
      handler: async (request) => {
        throw apiErrors.methodNotAllowed(request.method, PRIVACY_API_PATH);
      },
    });
  };
}

/**
 * The built answers to a privacy link (src/features/site/link-pages.ts), or bare ones without a
 * site.
 */
export function privacyPageHtml(siteDir: string | undefined) {
  const built = siteDir ? readManifest(siteDir).privacyPages : undefined;
  return linkPageHtml(siteDir, built, PRIVACY_PAGES);
}

/**
 * The page a privacy link opens (docs/consent.md): GET shows what confirming does and a button,
 * POST acts; a mail scanner that opens every link does nothing.
 */
export async function registerPrivacyPages(
  app: FastifyInstance,
  privacy: Privacy,
  pages: Readonly<Record<PrivacyPageState, string>>,
): Promise<void> {
  const answer = (reply: FastifyReply, state: PrivacyPageState, token = '') =>
    answerLinkPage(
      reply,
      PRIVACY_PAGES[state],
      pages[state],
      `${PRIVACY_CONFIRM_PATH}?${LINK_TOKEN_PARAMETER}=${encodeURIComponent(token)}`,
    );
  await app.register(async (scope) => {
    scope.setErrorHandler((error: { statusCode?: number }, request, reply) => {
      if ((error.statusCode ?? 500) < 500) return answer(reply, 'invalid');
      request.log.error({ err: error }, 'privacy link: answered unavailable');
      return answer(reply, 'unavailable');
    });
    // No request log lines (warnings and errors still are): the address carries the token.
    const logLevel = 'warn';
    scope.get(PRIVACY_CONFIRM_PATH, { logLevel }, async (request, reply) => {
      const token = tokenOf(request);
      return answer(reply, await privacy.check(token), token);
    });
    scope.post(PRIVACY_CONFIRM_PATH, { logLevel }, async (request, reply) => {
      const token = tokenOf(request);
      return answer(reply, await privacy.confirm(token), token);
    });
  });
}
