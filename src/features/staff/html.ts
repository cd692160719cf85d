import { escapeHtml } from '../../kernel/mail/mail-message.ts';

/**
 * HTML that is already safe: built by `html` (its values escaped) or marked by `raw()`. Templates
 * escape by default (../shared/STYLE.md, "Server-rendered pages"): a plain string is always text.
 */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a template may interpolate: text (escaped), safe HTML, nothing, or a list of those. */
export type HtmlValue =
  string | number | SafeHtml | null | undefined | false | readonly HtmlValue[];

/** Marks trusted markup (an SVG built by code, never a value that came from a request). */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(value as string | number);
}

/** `html\`<p>${name}</p>\``: every value escaped unless it is SafeHtml; lists are joined. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}
