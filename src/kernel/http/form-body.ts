import { FORM_TOKEN_FIELD, HONEYPOT_FIELD } from '../schemas/bot-trap.ts';

type FormValues = Map<string, string[]>;

/** How many times each flat field came, for the fields a form sent more than once (non-empty). */
const repetitions = new WeakMap<object, ReadonlyMap<string, number>>();

/**
 * Spec 4 rule 1 joins a repeated field with a comma, which is right for checkboxes but turns a field
 * sent twice by mistake (two EMAIL inputs) into a refused value: the error then names the repetition.
 */
export function repeatedFieldsOf(body: unknown): ReadonlyMap<string, number> {
  return (typeof body === 'object' && body !== null && repetitions.get(body)) || new Map();
}

/**
 * The bot trap's fields of a site form (src/kernel/schemas/bot-trap.ts), as sent; absent ones
 * undefined.
 */
export interface TrapFields {
  honeypot?: string;
  token?: string;
}

/**
 * The trap's fields are taken out of a form body before the schema sees it (the lead never holds
 * them, and an agent's JSON body stays strict: docs/api-decisions.md, "Bot trap").
 */
const trapFields = new WeakMap<object, TrapFields>();

/** The trap fields a form body carried; undefined for a body that is not a parsed form (JSON). */
export function trapFieldsOf(body: unknown): TrapFields | undefined {
  return typeof body === 'object' && body !== null ? trapFields.get(body) : undefined;
}

/*
 * An HTML form carries flat fields plus the bracket keys of the audit questionnaire
 * (`formData[Question]=Answer`, spec 2.3, one level deep). Spec 4 rule 1: a repeated field is joined
 * with a comma. An empty input is a field left blank, so it is dropped and a required one is reported
 * as missing.
 *
 * docs/reliability.md: keys are data. `__proto__`, `constructor` or `prototype` end up as ordinary own properties
 * of null-prototype objects (never object machinery), so the schema judges them like any other name:
 * an unknown top-level field is invalid_field, a questionnaire key is an answer kept as written.
 * (qs, used before, silently dropped `__proto__` keys, losing answers and hiding unknown fields.)
 */
export function parseFormBody(body: string): Record<string, unknown> {
  const fields = new Map<string, string[] | FormValues>();
  for (const [key, value] of new URLSearchParams(body)) {
    const bracket = /^([^[\]]+)\[([^[\]]*)\]$/.exec(key);
    const name = bracket ? bracket[1]! : key;
    const sub = bracket?.[2];
    if (sub === undefined || sub === '') {
      // `name` or `name[]` (checkbox arrays): a flat, possibly repeated, field.
      const values = fields.get(name);
      if (values === undefined) fields.set(name, [value]);
      else if (Array.isArray(values)) values.push(value);
      continue;
    }
    const group = fields.get(name) ?? new Map<string, string[]>();
    if (Array.isArray(group)) continue; // `name=…` then `name[x]=…`: the flat field stands.
    const answers = group.get(sub);
    if (answers) answers.push(value);
    else group.set(sub, [value]);
    fields.set(name, group);
  }
  const result = Object.create(null) as Record<string, unknown>;
  const repeated = new Map<string, number>();
  const trap = takeTrapFields(fields);
  for (const [name, values] of fields) {
    if (Array.isArray(values)) {
      const sent = values.filter((value) => value !== '').length;
      if (sent > 1) repeated.set(name, sent);
      const joined = join(values);
      if (joined !== undefined) result[name] = joined;
      continue;
    }
    const group = Object.create(null) as Record<string, string>;
    for (const [sub, answers] of values) {
      const joined = join(answers);
      if (joined !== undefined) group[sub] = joined;
    }
    result[name] = group;
  }
  repetitions.set(result, repeated);
  trapFields.set(result, trap);
  return result;
}

/** Removes the trap's fields from `fields`; a field sent twice keeps all it said (comma-joined). */
function takeTrapFields(fields: Map<string, string[] | FormValues>): TrapFields {
  const take = (name: string) => {
    const values = fields.get(name);
    fields.delete(name);
    return Array.isArray(values) ? values.join(',') : values && '(group)';
  };
  return { honeypot: take(HONEYPOT_FIELD), token: take(FORM_TOKEN_FIELD) };
}

function join(values: string[]): string | undefined {
  const joined = values.filter((value) => value !== '').join(',');
  return joined === '' ? undefined : joined;
}
