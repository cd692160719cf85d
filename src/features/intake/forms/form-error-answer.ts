import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../../kernel/schemas/error-catalog.ts';
import { FORM_REFUSALS, rateLimitedMessage } from '../../../kernel/schemas/form-messages.ts';
import { isBrowserFormPost } from '../../../kernel/http/body-parsers.ts';
import { TOKEN_SHAPE, type BotTrap } from './bot-trap.ts';
import { toApiError } from '../../../kernel/http/error-handler.ts';
import { fieldProblems } from '../../../kernel/http/field-problems.ts';
import { trapFieldsOf } from '../../../kernel/http/form-body.ts';
import { formErrorPage } from './form-error-page.ts';
import type { FormPages } from './form-pages.ts';
import { formRefusalPage } from './form-refusal-page.ts';
import { withToken } from './live-form-page.ts';
import { HTML_SECURITY_HEADERS } from '../../../kernel/http/site/site-files.ts';

/**
 * The error handler of the API's routes: a browser's form post that fails validation gets its form
 * page back, at the same status, with the values kept and a message by each field; one refused
 * whole (413 too large, 429 rate-limited) gets the form page with the reason under its title, at
 * that status and with the same headers (Retry-After) (docs/api-decisions.md, "Form errors").
 * Anything else, and any request that asked for JSON, goes on to the app's error handler (the
 * ErrorResponse of spec 2.5). `trap` signs the form token of a refused page.
 */
export function formErrorHandler(
  formPages: FormPages | undefined,
  bodyLimit: number,
  trap: Pick<BotTrap, 'issue'>,
) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error, { bodyLimit, request });
    const html =
      formPages && isBrowserFormPost(request)
        ? pageFor(formPages, request, error, apiError, () => trap.issue())
        : undefined;
    if (html === undefined) throw error;
    return reply
      .code(apiError.statusCode)
      .headers({
        ...apiError.headers,
        ...HTML_SECURITY_HEADERS,
        // It holds what the person typed: never kept by a cache.
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .type('text/html; charset=utf-8')
      .send(html);
  };
}

function pageFor(
  formPages: FormPages,
  request: FastifyRequest,
  error: FastifyError,
  apiError: ApiError,
  freshToken: () => string,
): string | undefined {
  const action = request.url.split('?')[0] ?? request.url;
  const page = formPages.pageFor(request, action);
  if (page === undefined) return undefined;
  if (error.validation) {
    const values = (request.body ?? {}) as Record<string, unknown>;
    const html = formErrorPage(page, action, values, fieldProblems(error.validation as never));
    return withSentToken(request, html);
  }
  const reason = refusalOf(apiError);
  const refused = reason === undefined ? undefined : formRefusalPage(page, action, reason);
  // A refused post's body was never read, so it has no token to send back: the page is a new view
  // of the form and gets a token signed now, as src/features/intake/forms/live-form-page.ts gives
  // one, so a retry from it is timed like any other post (docs/api-decisions.md, "Bot trap").
  return refused && withToken(refused, freshToken());
}

/** The reason shown for a post refused whole, before its body was read. */
function refusalOf(apiError: ApiError): string | undefined {
  switch (apiError.code) {
    case 'payload_too_large':
      return FORM_REFUSALS.tooLarge;
    case 'rate_limited':
      return rateLimitedMessage(apiError.headers['retry-after']!);
  }
  return undefined;
}

/**
 * The bot trap's token goes back as it came (docs/api-decisions.md, "Bot trap"): the time to
 * correct a field adds to the time already spent, so a quick fix is never judged too fast.
 */
function withSentToken(request: FastifyRequest, html: string | undefined): string | undefined {
  const token = trapFieldsOf(request.body)?.token;
  return html && token && TOKEN_SHAPE.test(token) ? withToken(html, token) : html;
}
