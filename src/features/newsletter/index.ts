/** What the other features use of newsletter (docs/architecture.md). */
export { CONFIRMATION_LINK_TTL_MS } from './newsletter-links.ts';
export { answerLinkPage, linkPageHtml, tokenOf } from './newsletter-routes.ts';
export { isNewsletterSubscription } from './newsletter.ts';
export type { NewsletterJournal } from './newsletter.ts';
export type { OptOutEntry } from './opt-out.ts';
