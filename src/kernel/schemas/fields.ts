import { Type } from 'typebox';
import type { PhoneKeyword } from './phone-number.ts';

/*
 * Field builders shared by the three request schemas. `maxLength` is checked by Ajv, which counts
 * Unicode code points (spec section 2: "a bound in characters"), so 100 emoji is a valid name.
 * A required text must not be empty: an empty form input means the person left the field out.
 * `title` is the field's French label (JSON Schema's annotation for a human-readable name): the
 * e-mails and pages people read show it, never the field's API name
 * (src/kernel/schemas/field-labels.ts).
 */
export function requiredText(
  title: string,
  maxLength: number,
  description: string,
  examples?: string[],
) {
  return Type.String({
    title,
    minLength: 1,
    maxLength,
    description,
    ...(examples && { examples }),
  });
}

export function optionalText(
  title: string,
  maxLength: number,
  description: string,
  examples?: string[],
) {
  return Type.Optional(
    Type.String({ title, maxLength, description, ...(examples && { examples }) }),
  );
}

export function emailAddress(description: string) {
  return Type.String({
    title: 'Adresse e-mail',
    format: 'email',
    minLength: 1,
    maxLength: 254,
    description,
    examples: ['marie.dupont@example.fr'],
  });
}

/**
 * A phone number (src/schemas/phone-number.ts): a text of 30 characters at most that must be a
 * number that can exist, read in France unless it carries its prefix (or `countryCodeField` does).
 */
export function optionalPhone(
  title: string,
  description: string,
  examples: string[],
  keyword: PhoneKeyword = {},
) {
  return Type.Optional(
    Type.String({
      title,
      maxLength: 30,
      description: `${description} Un numéro qui ne peut pas exister (trop court, des lettres) est refusé (invalid_field).`,
      examples,
      'x-phone': keyword,
    }),
  );
}

/**
 * A list of choices in one text, comma-separated (spec 2.1's TYPE_BESOIN): the pattern lets a
 * caller check it and refuses any other word; `x-choices` names the choices for the error's hint.
 * Spaces around the commas are allowed, and an empty text is no choice (an empty optional input).
 */
export function optionalChoiceList(
  title: string,
  maxLength: number,
  choices: readonly string[],
  description: string,
  examples: string[],
) {
  const one = `(${choices.join('|')})`;
  return Type.Optional(
    Type.String({
      title,
      maxLength,
      pattern: `^( *${one}( *, *${one})* *)?$`,
      'x-choices': choices,
      description,
      examples,
    }),
  );
}
