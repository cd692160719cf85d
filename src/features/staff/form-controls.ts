import { normalizeEmail } from '../../kernel/lead/lead.ts';
import { html, type HtmlValue, type SafeHtml } from './html.ts';

export interface FieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  autocomplete?: string;
  value?: string;
  help?: string;
  /** Shown under the field and tied to it (aria-describedby, aria-invalid). */
  error?: string;
  required?: boolean;
  inputmode?: 'numeric' | 'text';
  minlength?: number;
  maxlength?: number;
}

/** A labelled input with its help and error tied to it (../shared/STYLE.md, "Server-rendered pages"). */
export function field(options: FieldOptions): SafeHtml {
  const id = `champ-${options.name}`;
  const described = [options.help ? `${id}-aide` : '', options.error ? `${id}-erreur` : '']
    .filter(Boolean)
    .join(' ');
  return html`<div class="field">
    <label for="${id}"
      >${options.label}${options.required ? html` <span class="required" aria-hidden="true">*</span>` : ''}</label
    >
    ${options.help ? html`<p class="help" id="${id}-aide">${options.help}</p>` : ''}
    <input
      id="${id}"
      name="${options.name}"
      type="${options.type ?? 'text'}"
      ${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${options.value !== undefined && options.type !== 'password' ? html` value="${options.value}"` : ''}${options.required ? html` required` : ''}${options.inputmode ? html` inputmode="${options.inputmode}"` : ''}${options.minlength ? html` minlength="${options.minlength}"` : ''}${options.maxlength ? html` maxlength="${options.maxlength}"` : ''}${described ? html` aria-describedby="${described}"` : ''}${options.error ? html` aria-invalid="true"` : ''}
    />
    ${options.error ? html`<p class="field-error" id="${id}-erreur">${options.error}</p>` : ''}
  </div>`;
}

/** A message for the whole form (a refused sign-in): announced, above the fields. */
export function formAlert(text: string | undefined): HtmlValue {
  return text ? html`<div class="page-alert" role="alert"><p>${text}</p></div>` : '';
}

/** A form body's field as one string ('' when absent; the first when repeated). */
export function formText(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : '';
  return typeof value === 'string' ? value : '';
}

/** A whole e-mail address typed in a form, as the journal writes it (normalizeEmail); else undefined. */
export function formAddress(body: unknown, name = 'email'): string | undefined {
  const address = normalizeEmail(formText(body, name));
  return address.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) ? address : undefined;
}

/** A date typed in an `<input type="date">` (YYYY-MM-DD), at noon UTC: the same day in Paris. */
export function formDay(body: unknown, name: string): Date | undefined {
  const value = formText(body, name);
  return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
    ? new Date(`${value}T12:00:00Z`)
    : undefined;
}

/** A repeated form field (checkboxes of a bulk action) as a list of strings. */
export function formList(body: unknown, name: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}
