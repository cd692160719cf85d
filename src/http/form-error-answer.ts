import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isBrowserFormPost } from './body-parsers.ts';
import { toApiError } from './error-handler.ts';
import { fieldProblems } from './field-problems.ts';
import { formErrorPage } from './form-error-page.ts';
import type { FormPages } from './form-pages.ts';
import { HTML_SECURITY_HEADERS } from './site-files.ts';

/**
 * The route error handler of the lead endpoints: a browser's form post that fails validation gets
 * its form page back, at the same status, with the values kept and a message by each field
 * (docs/api-decisions.md, "Form errors"). Anything else, and any request that asked for JSON, goes
 * on to the app's error handler (the ErrorResponse of spec 2.5).
 */
export function formErrorHandler(formPages: FormPages | undefined, bodyLimit: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const html =
      formPages && error.validation && isBrowserFormPost(request)
        ? pageFor(formPages, request, error)
        : undefined;
    if (html === undefined) throw error;
    return reply
      .code(toApiError(error, { bodyLimit, request }).statusCode)
      .headers({
        ...HTML_SECURITY_HEADERS,
        // It holds what the person typed: never kept by a cache.
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .type('text/html; charset=utf-8')
      .send(html);
  };
}

function pageFor(formPages: FormPages, request: FastifyRequest, error: FastifyError) {
  const action = request.url.split('?')[0] ?? request.url;
  const page = formPages.pageFor(request, action);
  const values = (request.body ?? {}) as Record<string, unknown>;
  return page && formErrorPage(page, action, values, fieldProblems(error.validation as never));
}
