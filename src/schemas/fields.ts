import { Type } from 'typebox';

/*
 * Field builders shared by the three request schemas. `maxLength` is checked by Ajv, which counts
 * Unicode code points (spec section 2: "a bound in characters"), so 100 emoji is a valid name.
 * A required text must not be empty: an empty form input means the person left the field out.
 */
export function requiredText(maxLength: number, description: string, examples?: string[]) {
  return Type.String({ minLength: 1, maxLength, description, ...(examples && { examples }) });
}

export function optionalText(maxLength: number, description: string, examples?: string[]) {
  return Type.Optional(Type.String({ maxLength, description, ...(examples && { examples }) }));
}

export function emailAddress(description: string) {
  return Type.String({
    format: 'email',
    minLength: 1,
    maxLength: 254,
    description,
    examples: ['marie.dupont@example.fr'],
  });
}
