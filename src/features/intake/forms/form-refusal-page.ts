import { escapeHtml } from '../../../kernel/mail/mail-message.ts';
import { FORM_REFUSALS } from '../../../kernel/schemas/form-messages.ts';

const FIRST_FIELD = /<(?:input|textarea|select)\b(?![^>]*type="hidden")[^>]*\sid="([^"]+)"/;

/**
 * A built form page, for a post refused as a whole before its body was read (413, 429;
 * docs/api-decisions.md, "Form errors"): the reason sits right under the title, where the person
 * lands, with a link down to the form. Undefined when the page has no form posting to `action`.
 */
export function formRefusalPage(page: string, action: string, message: string): string | undefined {
  const form = page.indexOf(`<form class="lead-form" method="post" action="${action}"`);
  const title = page.indexOf('</h1>');
  const field = form === -1 ? undefined : FIRST_FIELD.exec(page.slice(form))?.[1];
  if (field === undefined || title === -1) return undefined;
  const alert = `<div class="page-alert" role="alert"><p>${escapeHtml(message)}</p><p><a href="#${field}">${FORM_REFUSALS.backToForm}</a></p></div>`;
  const at = title + '</h1>'.length;
  const withAlert = `${page.slice(0, at)}\n${alert}${page.slice(at)}`;
  return withAlert.replace('<title>', '<title>Demande non envoyée · ');
}
