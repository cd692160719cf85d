import { FORM_MESSAGES, tooLongMessage } from '../../../kernel/schemas/form-messages.ts';
import type { FieldProblem } from '../../../kernel/http/field-problems.ts';

/*
 * Re-renders a built form page after the server refused it (docs/site.md, "Form errors"): every
 * value the person sent is put back, each faulty field gets its French message, aria-invalid and
 * aria-describedby, the first one autofocus, and the form's alert region lists them all. It reads
 * the markup src/features/site/templates/forms.ts writes, whose attributes are always
 * double-quoted.
 */

type Attribute = [name: string, value: string | true];
type Values = Record<string, unknown>;

const ATTRIBUTE = /([^\s"'>/=]+)(?:="([^"]*)")?/g;
const CONTROL = /<(input|textarea|select)\b([^>]*)>/g;
const MARKS = /<span class="(required|optional)"[\s\S]*?<\/span>/g;

export const decodeHtml = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
const encode = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

function parse(source: string): Attribute[] {
  return [...source.matchAll(ATTRIBUTE)].map(([, name, value]) => [
    name!,
    value === undefined ? true : decodeHtml(value),
  ]);
}

function print(element: string, attributes: Attribute[]): string {
  const printed = attributes.map(([name, value]) =>
    value === true ? ` ${name}` : ` ${name}="${encode(value)}"`,
  );
  return `<${element}${printed.join('')}>`;
}

function get(attributes: Attribute[], name: string): string | undefined {
  const value = attributes.find(([key]) => key === name)?.[1];
  return value === true ? '' : value;
}

function set(attributes: Attribute[], name: string, value: string | true): Attribute[] {
  return [...attributes.filter(([key]) => key !== name), [name, value]];
}

/** What the person sent for an input name: flat fields, and `formData[Question]` answers. */
function sentValue(values: Values, name: string): string | undefined {
  const answer = /^formData\[(.*)\]$/.exec(name);
  const value = answer ? (values.formData as Values | undefined)?.[answer[1]!] : values[name];
  return typeof value === 'string' ? value : undefined;
}

const isChoice = (attributes: Attribute[]) =>
  ['checkbox', 'radio'].includes(get(attributes, 'type') ?? '');

/** Every control gets back what the person sent; the consent box (no name) was ticked to be sent. */
function restoreValues(form: string, values: Values): string {
  const filled = form.replace(CONTROL, (tag, element: string, source: string) => {
    const control = parse(source);
    const name = get(control, 'name');
    if (get(control, 'type') === 'hidden') return tag;
    if (name === undefined)
      return isChoice(control) ? print(element, set(control, 'checked', true)) : tag;
    const sent = sentValue(values, name);
    if (sent === undefined || element === 'select') return tag;
    if (element === 'textarea') return `${tag}${encode(sent)}`;
    if (!isChoice(control)) return print(element, set(control, 'value', sent));
    const value = get(control, 'value') ?? '';
    const chosen =
      sent === value || (get(control, 'type') === 'checkbox' && sent.split(',').includes(value));
    return chosen ? print(element, set(control, 'checked', true)) : tag;
  });
  return filled.replace(
    /(<select\b[^>]*\bname="([^"]+)"[^>]*>)([\s\S]*?)(<\/select>)/g,
    (all, open: string, name: string, options: string, close: string) => {
      const sent = sentValue(values, decodeHtml(name));
      if (sent === undefined) return all;
      const option = `<option value="${encode(sent)}">`;
      if (!options.includes(option)) return all;
      const chosen = options
        .replaceAll(' selected', '')
        .replace(option, option.replace('>', ' selected>'));
      return `${open}${chosen}${close}`;
    },
  );
}

function plainText(html: string): string {
  return decodeHtml(html.replace(MARKS, '').replace(/<[^>]+>/g, '')).trim();
}

function messageFor(problem: FieldProblem, choice: boolean, sent: string | undefined): string {
  switch (problem.kind) {
    case 'missing':
      return choice ? FORM_MESSAGES.choice : FORM_MESSAGES.missing;
    case 'email':
      return FORM_MESSAGES.email;
    case 'tooLong':
      return tooLongMessage([...(sent ?? '')].length, problem.limit ?? 0);
    default:
      return FORM_MESSAGES.invalid;
  }
}

interface Flagged {
  id: string;
  label: string;
  message: string;
}

/** Marks every control named `problem.field` and places its message; undefined if no such control. */
function flagField(form: string, problem: FieldProblem, values: Values) {
  const controls = [...form.matchAll(CONTROL)].filter(
    (match) => get(parse(match[2]!), 'name') === problem.field,
  );
  const first = controls[0];
  if (!first) return undefined;
  const attributes = parse(first[2]!);
  const id = get(attributes, 'id') ?? '';
  const choice = isChoice(attributes);
  const message = messageFor(problem, choice, sentValue(values, problem.field));
  const paragraph = `<p class="field-error" id="${id}-erreur">${encode(message)}</p>`;

  let label: string;
  let marked = form.replace(CONTROL, (tag, element: string, source: string) => {
    const control = parse(source);
    if (get(control, 'name') !== problem.field) return tag;
    const describedBy = [get(control, 'aria-describedby'), `${id}-erreur`].filter(Boolean);
    return print(
      element,
      set(set(control, 'aria-invalid', 'true'), 'aria-describedby', describedBy.join(' ')),
    );
  });
  if (choice) {
    // A group of boxes: one message, at the end of the fieldset its legend names.
    const group = marked.lastIndexOf('<fieldset', marked.indexOf(`id="${id}"`));
    const close = marked.indexOf('</fieldset>', group);
    label = plainText(/<legend>([\s\S]*?)<\/legend>/.exec(marked.slice(group))?.[1] ?? '');
    marked = marked.slice(0, close) + paragraph + marked.slice(close);
  } else {
    label = plainText(new RegExp(`<label for="${id}">([\\s\\S]*?)</label>`).exec(form)?.[1] ?? '');
    const at = marked.indexOf(`id="${id}"`);
    const element = first[1]!;
    const after =
      element === 'input'
        ? marked.indexOf('>', at) + 1
        : marked.indexOf(`</${element}>`, at) + `</${element}>`.length;
    marked = marked.slice(0, after) + paragraph + marked.slice(after);
  }
  return { form: marked, flagged: { id, label: label || problem.field, message } };
}

/** The page with the form posting to `action` filled with `values` and its `problems` shown. */
export function formErrorPage(
  page: string,
  action: string,
  values: Values,
  problems: FieldProblem[],
): string | undefined {
  const start = page.indexOf(`<form class="lead-form" method="post" action="${action}"`);
  const end = page.indexOf('</form>', start);
  if (start === -1 || end === -1) return undefined;
  let form = restoreValues(page.slice(start, end), values);
  const flagged: Flagged[] = [];
  for (const problem of problems) {
    const result = flagField(form, problem, values);
    if (!result) return undefined; // a field the form does not have: the JSON answer says more
    form = result.form;
    flagged.push(result.flagged);
  }
  // The person lands on the first field to fix, in the order the form shows them.
  flagged.sort((a, b) => form.indexOf(`id="${a.id}"`) - form.indexOf(`id="${b.id}"`));
  const first = flagged[0];
  if (first) form = form.replace(`id="${first.id}"`, `id="${first.id}" autofocus`);
  const items = flagged
    .map(
      (entry) =>
        `<li><a href="#${entry.id}">${encode(entry.label)}</a>\u00a0: ${encode(entry.message)}</li>`,
    )
    .join('');
  form = form.replace(
    '<div class="form-status" role="alert"></div>',
    `<div class="form-status" role="alert"><p>${encode(FORM_MESSAGES.summary)}</p><ul>${items}</ul></div>`,
  );
  const withTitle = page.slice(0, start).replace('<title>', '<title>Formulaire à corriger · ');
  return withTitle + form + page.slice(end);
}
