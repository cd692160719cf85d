import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/*
 * Fastify's default Ajv coerces types and silently removes unknown properties; the spec wants both
 * refused (spec 2: additionalProperties false; a number is not a name). allErrors lets the error
 * mapper prefer a missing field over an invalid one, whatever order Ajv checks them in.
 */
const ajv = new Ajv({
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  strict: false,
});
addFormats.default(ajv, ['email']);

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema }) =>
  ajv.compile(schema as object);
