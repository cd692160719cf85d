import Value from 'typebox/value';
import { EnvSchema, variableSchema, type Env, type VariableSchema } from './env-schema.ts';

/** A value the operator set that cannot be used: the server refuses to start rather than guess. */
export class InvalidConfigError extends Error {}

/** What a value must look like, in the words of the one line the operator reads. */
function expected(schema: VariableSchema): string {
  if (typeof schema.expected === 'string') return schema.expected;
  if (Array.isArray(schema.anyOf)) {
    return `one of ${schema.anyOf.map((option) => option.const).join(', ')}`;
  }
  if (schema.type === 'integer') {
    return schema.maximum === undefined
      ? `an integer ≥ ${String(schema.minimum)}`
      : `an integer from ${String(schema.minimum)} to ${String(schema.maximum)}`;
  }
  return 'a non-empty value';
}

/**
 * Validates the environment against EnvSchema: blank means unset, integers are written in digits only
 * ("3.5", "64k" or "1e3" are refused, not rounded), the first wrong variable ends the start with one
 * line naming it.
 */
export function readEnv(source: Record<string, string | undefined>): Env {
  const env: Record<string, string | number> = {};
  for (const name of Object.keys(EnvSchema.properties)) {
    const raw = source[name]?.trim();
    if (!raw) continue;
    const isInteger = variableSchema(name).type === 'integer';
    if (isInteger && !/^\d+$/.test(raw)) throw wrong(name, raw);
    env[name] = isInteger ? Number(raw) : raw;
  }
  const withDefaults = Value.Default(EnvSchema, env);
  const [error] = Value.Errors(EnvSchema, withDefaults);
  if (error) {
    const name = error.instancePath.split('/')[1] ?? '';
    throw wrong(name, String(source[name]?.trim() ?? ''));
  }
  return withDefaults as Env;
}

/** The port of a URL-shaped value, read without a URL parser (which refuses a port out of range). */
const URL_PORT = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#@]*):(\d+)(?:[/?#]|$)/i;

function wrong(name: string, raw: string): InvalidConfigError {
  const schema = variableSchema(name);
  // `smtps://u:p@host:99999`: the port is what is wrong, not the scheme; the port holds no secret.
  const port = URL_PORT.exec(raw)?.[1];
  if (port !== undefined && Number(port) > 65535) {
    return new InvalidConfigError(`${name} has port ${port}: a port is an integer from 1 to 65535`);
  }
  // A URL may carry a password: the line goes to logs, the value stays out of it.
  const shown = schema.secret ? ' (value not shown: it may hold a password)' : `, got "${raw}"`;
  return new InvalidConfigError(`${name} must be ${expected(schema)}${shown}`);
}
