import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/*
 * Fastify's default Ajv coerces types and silently removes unknown properties; the spec wants both
 * refused (spec 2: additionalProperties false; a number is not a name). allErrors lets the error
 * mapper prefer a missing field over an invalid one, whatever order Ajv checks them in.
 * No meta-schema (neither loaded nor checked against): the schemas are this code's own constants,
 * checked against it by test/features/intake/request-schemas.test.ts; loading and compiling it cost
 * ~55 ms of every start (docs/performance.md, "What a start loads").
 */
const ajv = new Ajv({
  allErrors: true,
  coerceTypes: false,
  removeAdditional: false,
  useDefaults: false,
  strict: false,
  validateSchema: false,
  meta: false,
});
addFormats.default(ajv, ['email']);

/** The one validator of request bodies: Fastify's routes, MCP tool arguments, OpenAPI examples. */
export function compileSchema<T = unknown>(schema: object) {
  return ajv.compile<T>(schema);
}

/**
 * The same validator, compiled at its first call rather than at start: the three lead schemas cost
 * ~50 ms to compile, a tenth of a start (docs/performance.md, "What a start loads"). The server
 * compiles them a second after listening (`compileSchema` on the same object fills Ajv's cache), so
 * a lead rarely pays it. Fastify and Ajv's users read `errors` off the function they hold.
 */
export function compileSchemaOnFirstUse<T = unknown>(schema: object): ValidateFunction<T> {
  let compiled: ValidateFunction<T> | undefined;
  const validate = ((data: unknown) => {
    compiled ??= compileSchema<T>(schema);
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  }) as ValidateFunction<T>;
  return validate;
}
