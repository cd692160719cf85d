import { Type } from 'typebox';

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
