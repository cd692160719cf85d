import type { TSchema } from 'typebox';
import { currentWording } from '../../../kernel/schemas/consent.ts';
import { attributes, escapeHtml } from './html.ts';

interface ObjectSchema {
  properties: Record<string, TSchema & { maxLength?: number; format?: string }>;
  required?: string[];
  then?: { required?: string[] };
}

/**
 * A form field's HTML constraints come from the API schema itself (one schema source, STYLE.md): a
 * field the schema lacks fails the build instead of shipping a form the API would refuse.
 */
export function fieldRules(schema: TSchema, name: string, { full = false } = {}) {
  const object = schema as unknown as ObjectSchema;
  const property = object.properties[name];
  if (!property) throw new Error(`The API schema has no field "${name}"`);
  const required =
    (object.required ?? []).includes(name) ||
    (full && (object.then?.required ?? []).includes(name));
  return { maxLength: property.maxLength, required, email: property.format === 'email' };
}

export interface InputOptions {
  form: string;
  schema: TSchema;
  name: string;
  label: string;
  /** Short help under the label, tied with aria-describedby. */
  help?: string;
  type?: 'text' | 'email' | 'tel' | 'url';
  autocomplete?: string;
  /** Required fields of the full contact form are conditional in the schema (spec 2.1). */
  full?: boolean;
  multiline?: boolean;
}

export function fieldId(form: string, name: string): string {
  return `${form}-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

export function requiredMark(required: boolean): string {
  return required
    ? ' <span class="required" aria-hidden="true">*</span>'
    : ' <span class="optional">(facultatif)</span>';
}

export function inputField(options: InputOptions): string {
  const rules = fieldRules(options.schema, options.name, { full: options.full ?? false });
  const id = fieldId(options.form, options.name);
  const helpId = options.help ? `${id}-aide` : undefined;
  const common = attributes({
    id,
    name: options.name,
    required: rules.required,
    // Not `maxlength`: a browser silently cuts what is pasted past it. forms.js counts instead, and
    // the server refuses an over-long text with the person's text kept (docs/site.md, "Form errors").
    'data-maxlength': rules.maxLength,
    autocomplete: options.autocomplete,
    'aria-describedby': helpId,
  });
  const control = options.multiline
    ? `<textarea${common} rows="6"></textarea>`
    : `<input${attributes({ type: rules.email ? 'email' : (options.type ?? 'text') })}${common}>`;
  return `<div class="field">
<label for="${id}">${escapeHtml(options.label)}${requiredMark(rules.required)}</label>
${helpId ? `<p class="help" id="${helpId}">${escapeHtml(options.help ?? '')}</p>\n` : ''}${control}
</div>`;
}

/** Which request each site form sends, for the consent wording it shows. */
const FORM_KINDS: Record<string, string> = {
  contact: 'contact',
  diagnostic: 'contact',
  audit: 'audit',
  lettre: 'subscribe',
};

/**
 * The consent rule of spec section 5, as a required box (never sent: it has no name) labelled with
 * the exact wording the journal records (schemas/consent.ts); the hidden fields name its version, so
 * the proof kept with the lead points at the very text shown here.
 */
export function consentField(form: string): string {
  const id = `${form}-consentement`;
  const wording = currentWording(FORM_KINDS[form] ?? form);
  const label = escapeHtml(wording.text).replace(
    'politique de confidentialité',
    '<a href="/politique-de-confidentialite">politique de confidentialité</a>',
  );
  return `<div class="field consent">
<input type="hidden" name="consent[version]"${attributes({ value: wording.version })}>
<input type="hidden" name="consent[channel]" value="form">
<input type="checkbox" id="${id}" required>
<label for="${id}">${label} <span class="required" aria-hidden="true">*</span></label>
</div>`;
}

/** Where the script announces the outcome; it stays empty without JavaScript. */
export function formFooter(submitLabel: string, note = ''): string {
  return `<div class="form-status" role="alert"></div>
<p class="form-note">Les champs marqués d’un astérisque (*) sont obligatoires.${note ? ` ${escapeHtml(note)}` : ''}</p>
<button type="submit">${escapeHtml(submitLabel)}</button>`;
}
