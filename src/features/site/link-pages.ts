import {
  BUTTON_ACTION_PLACEHOLDER,
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_PAGES,
  NEWSLETTER_UNSUBSCRIBE_PATH,
  type NewsletterPage,
  type NewsletterPageState,
} from '../../kernel/schemas/newsletter-pages.ts';
import {
  PRIVACY_CONFIRM_PATH,
  PRIVACY_PAGES,
  type PrivacyPageState,
} from '../../kernel/schemas/privacy-pages.ts';
import { renderMarkdown } from './markdown.ts';
import type { Page } from './pages.ts';
import { privacyForm } from './templates/forms.ts';
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

type LinkPageFiles<S extends string> = Record<S, { file: string; html: string }>;

/**
 * The answers to a signed link, pre-rendered in the site's layout like any page, but unlisted: the
 * server fills in the button's address and sends them with their status. Returns the files to write
 * into `folder`, by state.
 */
function linkPageFiles<S extends string>(
  context: LayoutContext,
  updated: string,
  folder: string,
  pages: Readonly<Record<S, NewsletterPage>>,
  pathOf: (state: S) => string,
): LinkPageFiles<S> {
  const entries = (Object.entries(pages) as [S, NewsletterPage][]).map(([state, content]) => {
    const page: Page = {
      source: '(généré)',
      path: pathOf(state),
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
    const form = content.privacyForm ? `\n${privacyForm(content.privacyForm)}` : '';
    // The whole page, as every page of the site (src/features/site/build.ts): the layout's texts
    // too.
    const html = typeset(layout(context, page, `${body}${button}${form}`, form !== ''));
    return [state, { file: `${folder}/${state}.html`, html }] as const;
  });
  return Object.fromEntries(entries) as LinkPageFiles<S>;
}

/** The answers to a newsletter link (docs/consent.md), by state. */
export function newsletterPageFiles(
  context: LayoutContext,
  updated: string,
): LinkPageFiles<NewsletterPageState> {
  return linkPageFiles(context, updated, 'newsletter-links', NEWSLETTER_PAGES, (state) =>
    state.startsWith('unsubscribe') ? NEWSLETTER_UNSUBSCRIBE_PATH : NEWSLETTER_CONFIRM_PATH,
  );
}

/** The answers to a privacy request's link (docs/consent.md, "Requests about one's data"), by state. */
export function privacyPageFiles(
  context: LayoutContext,
  updated: string,
): LinkPageFiles<PrivacyPageState> {
  return linkPageFiles(
    context,
    updated,
    'privacy-links',
    PRIVACY_PAGES,
    () => PRIVACY_CONFIRM_PATH,
  );
}
