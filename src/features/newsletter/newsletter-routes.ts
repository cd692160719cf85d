import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Newsletter } from './newsletter.ts';
import { escapeHtml } from '../../kernel/mail/mail-message.ts';
import {
  BUTTON_ACTION_PLACEHOLDER,
  LINK_TOKEN_PARAMETER,
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_PAGES,
  NEWSLETTER_UNSUBSCRIBE_PATH,
  type NewsletterPage,
  type NewsletterPageState,
} from '../../kernel/schemas/newsletter-pages.ts';
import { PRIVACY_PAGE_PATH } from '../../kernel/schemas/privacy-request.ts';
import { HTML_SECURITY_HEADERS, readManifest } from '../../kernel/http/site/site-files.ts';

export type NewsletterPageHtml = Readonly<Record<NewsletterPageState, string>>;

/** `[text](/path)` in text already escaped: the only Markdown the pages' words use. */
const withLinks = (escaped: string) =>
  escaped.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');

/** The same words on a bare page, for a server started without a built site (API only). */
function barePage(page: NewsletterPage): string {
  const paragraphs = [page.lead, ...page.body.split('\n\n')]
    .map((text) => `<p>${withLinks(escapeHtml(text))}</p>`)
    .join('\n');
  const hidden = Object.entries(page.button?.hidden ?? {})
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
    .join('');
  const button = page.button
    ? `\n<form method="post" action="${BUTTON_ACTION_PLACEHOLDER}">${hidden}<button type="submit">${escapeHtml(page.button.label)}</button></form>`
    : '';
  // The site's form lives in the built page; the bare one points to where it is.
  const form = page.privacyForm
    ? `\n<p><a href="${PRIVACY_PAGE_PATH}">Faire la demande sur la page Vos données</a></p>`
    : '';
  return `<!doctype html>\n<html lang="fr">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${escapeHtml(page.title)}</title>\n</head>\n<body>\n<main>\n<h1>${escapeHtml(page.title)}</h1>\n${paragraphs}${button}${form}\n</main>\n</body>\n</html>\n`;
}

/** The built pages of dist/ (src/features/site/link-pages.ts), or bare ones without a site. */
export function newsletterPageHtml(siteDir: string | undefined): NewsletterPageHtml {
  const built = siteDir ? readManifest(siteDir).newsletterPages : undefined;
  return linkPageHtml(siteDir, built, NEWSLETTER_PAGES);
}

/** The answers to a signed link, by state: the built files listed in the manifest, or bare pages. */
export function linkPageHtml<S extends string>(
  siteDir: string | undefined,
  built: Partial<Record<S, string>> | undefined,
  pages: Readonly<Record<S, NewsletterPage>>,
): Readonly<Record<S, string>> {
  const states = Object.keys(pages) as S[];
  return Object.fromEntries(
    states.map((state) => {
      const file = built?.[state];
      const html = file ? readFileSync(join(siteDir!, file), 'utf8') : undefined;
      return [state, html ?? barePage(pages[state])];
    }),
  ) as Record<S, string>;
}

/** A link page sent with its status; the token stays out of caches, Referers and indexes. */
export function answerLinkPage(
  reply: FastifyReply,
  page: NewsletterPage,
  html: string,
  action: string,
): FastifyReply {
  return reply
    .code(page.status)
    .headers(HTML_SECURITY_HEADERS)
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(html.replace(BUTTON_ACTION_PLACEHOLDER, escapeHtml(action)));
}

export const tokenOf = (request: FastifyRequest): string => {
  const value = (request.query as Record<string, unknown> | undefined)?.[LINK_TOKEN_PARAMETER];
  return typeof value === 'string' ? value : '';
};

/**
 * The pages a newsletter link opens (docs/consent.md): French pages for people, with the status
 * that says what happened (400 tampered, 410 expired or used), never a JSON error. GET only shows a
 * button, POST acts: mail scanners that open every link must not confirm or unsubscribe anyone;
 * an RFC 8058 client POSTs `List-Unsubscribe=One-Click` to the unsubscribe link itself.
 */
export async function registerNewsletterRoutes(
  app: FastifyInstance,
  newsletter: Newsletter,
  pages: NewsletterPageHtml,
): Promise<void> {
  const answer = (reply: FastifyReply, state: NewsletterPageState, path = '', token = '') => {
    const action = `${path}?${LINK_TOKEN_PARAMETER}=${encodeURIComponent(token)}`;
    // The token is in the address: no cache keeps the page, no Referer carries it away.
    return answerLinkPage(reply, NEWSLETTER_PAGES[state], pages[state], action);
  };

  await app.register(async (scope) => {
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if ((error.statusCode ?? 500) < 500) return answer(reply, 'invalid');
      request.log.error({ err: error }, 'newsletter link: answered unavailable');
      return answer(reply, 'unavailable');
    });
    const route = (path: string, get: Check, post: Check) => {
      // No request log lines (warnings and errors still are): the address carries the token.
      const logLevel = 'warn';
      scope.get(path, { logLevel }, async (request, reply) => {
        const token = tokenOf(request);
        return answer(reply, await get(token, request), path, token);
      });
      scope.post(path, { logLevel }, async (request, reply) => {
        const token = tokenOf(request);
        return answer(reply, await post(token, request), path, token);
      });
    };
    route(
      NEWSLETTER_CONFIRM_PATH,
      (token) => newsletter.checkConfirmation(token),
      (token, request) => newsletter.confirm(token, request.ip),
    );
    // Without a valid link, the unsubscribe page says how to unsubscribe and offers the request of
    // /vos-donnees (docs/consent.md), not a new subscription.
    const withoutLink =
      (outcome: (token: string) => Promise<NewsletterPageState>) => async (token: string) => {
        const state = await outcome(token);
        if (state !== 'invalid') return state;
        return token === '' ? 'unsubscribe-help' : 'unsubscribe-invalid';
      };
    route(
      NEWSLETTER_UNSUBSCRIBE_PATH,
      withoutLink((token) => newsletter.checkUnsubscribe(token)),
      withoutLink((token) => newsletter.unsubscribe(token)),
    );
  });
}

type Check = (token: string, request: FastifyRequest) => Promise<NewsletterPageState>;
