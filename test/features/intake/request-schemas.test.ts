import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { compileSchemaOnFirstUse } from '../../../src/kernel/schemas/compile-schema.ts';
import { LEAD_KINDS } from '../../../src/kernel/schemas/lead-kinds.ts';

// The validator compiles these without checking them against the meta-schema
// (src/kernel/schemas/compile-schema.ts): this is where a malformed schema is caught instead.
describe('the request schemas', () => {
  const metaChecker = new Ajv({ strict: false });

  for (const endpoint of LEAD_KINDS) {
    it(`${endpoint.path}: its body schema is valid JSON Schema`, () => {
      expect(metaChecker.validateSchema(endpoint.schema), JSON.stringify(metaChecker.errors)).toBe(
        true,
      );
    });
  }

  it('refuses a malformed schema (the check can fail)', () => {
    const malformed = { type: 'object', properties: { name: { type: 'texte' } } };
    expect(metaChecker.validateSchema(malformed)).toBe(false);
  });
});

describe('a validator compiled at its first use', () => {
  const schema = {
    type: 'object',
    properties: { email: { type: 'string', format: 'email' } },
    required: ['email'],
    additionalProperties: false,
  };

  it('accepts and refuses as the compiled one does, and carries its errors', () => {
    const validate = compileSchemaOnFirstUse(schema);
    expect(validate({ email: 'lea@example.fr' })).toBe(true);
    expect(validate.errors).toBeNull();
    expect(validate({ email: 'pas-une-adresse', extra: 1 })).toBe(false);
    expect(validate.errors?.map((error) => error.keyword).sort()).toEqual([
      'additionalProperties',
      'format',
    ]);
    expect(validate({ email: 'lea@example.fr' })).toBe(true);
    expect(validate.errors).toBeNull();
  });
});
