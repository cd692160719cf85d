import {
  BUTTON_ACTION_PLACEHOLDER,
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_PAGES,
  NEWSLETTER_UNSUBSCRIBE_PATH,
  type NewsletterPage,
  type NewsletterPageState,
} from '../src/schemas/newsletter-pages.ts';
import { renderMarkdown } from './markdown.ts';
import type { Page } from './pages.ts';
import { escapeHtml } from './templates/html.ts';
import { layout, type LayoutContext } from './templates/layout.ts';
import { typeset } from './typeset.ts';

/** A button that posts to the link's own address: it works without JavaScript. */
function buttonForm({ label, hidden = {} }: NonNullable<NewsletterPage['button']>): string {
  const fields = Object.entries(hidden)
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('');
  return `<form class="link-action" method="post" action="${BUTTON_ACTION_PLACEHOLDER}">${fields}<button class="button" type="submit">${escapeHtml(label)}</button></form>`;
}

/**
 * The answers to a newsletter link (docs/consent.md), pre-rendered in the site's layout like any
 * page, but unlisted: the server fills in the button's address and sends them with their status.
 * Returns the files to write, by state.
 */
export function newsletterPageFiles(
  context: LayoutContext,
  updated: string,
): Record<NewsletterPageState, { file: string; html: string }> {
  const entries = Object.entries(NEWSLETTER_PAGES).map(([state, content]) => {
    const page: Page = {
      source: '(généré)',
      path: state.startsWith('unsubscribe') ? NEWSLETTER_UNSUBSCRIBE_PATH : NEWSLETTER_CONFIRM_PATH,
      title: content.title,
      description: content.lead,
      updated,
      noindex: true,
      unlisted: true,
      newsletter: false,
      questions: [],
      body: content.body,
    };
    const body = renderMarkdown(content.body, page.source);
    const button = content.button ? `\n${buttonForm(content.button)}` : '';
    // The whole page, as every page of the site (site/build.ts): the layout's texts too.
    const html = typeset(layout(context, page, `${body}${button}`, false));
    return [state, { file: `newsletter-links/${state}.html`, html }] as const;
  });
  return Object.fromEntries(entries) as Record<NewsletterPageState, { file: string; html: string }>;
}
