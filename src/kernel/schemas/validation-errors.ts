import type { ErrorObject } from 'ajv';
import {
  ApiError,
  apiErrors,
  FIELD_WORDS,
  quoteList,
  SCHEMA_HINT,
  type FieldError,
  type Medium,
} from './error-catalog.ts';
import { suggestField, nameKey, type PersonFields } from './field-suggestions.ts';
import { misplacedAnswers, type QuestionnaireFields } from './misplaced-answers.ts';

/** What the error mapper reads of a field's schema: its French label and its choices. */
export interface FieldSchema {
  title?: string;
  enum?: readonly string[];
  'x-choices'?: readonly string[];
}

export interface ValidationContext {
  /** The properties the request schema declares, to suggest the spelling of an unknown field. */
  knownFields: readonly string[];
  /** The same properties' schemas (FieldSchema), for a field's label and choices in a hint. */
  properties?: object;
  /** Which fields say who the person is (the descriptor's `fields`), for the known aliases. */
  person?: PersonFields;
  /** Form fields sent more than once (see form-body.ts), with their count. */
  repeatedFields: ReadonlyMap<string, number>;
  /** A complete valid body of the endpoint, for the invalid_json hint. */
  example: object | undefined;
  /** The body as received, so an answer sent in the wrong place can be moved, never dropped. */
  body?: unknown;
  /** The endpoint's questionnaire fields (its lead-kind descriptor), when it takes answers. */
  questionnaire?: QuestionnaireFields | undefined;
  /** How the caller sent it, so the hint speaks its language (JSON body, form, tool arguments). */
  medium?: Medium;
}

/** "/formData/Question~1x" → "formData.Question/x": the name a caller wrote. */
export function fieldName(error: ErrorObject): string {
  return pathOf(error).join('.');
}

function pathOf(error: ErrorObject): string[] {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function isMissing(error: ErrorObject): boolean {
  // An empty required text is a field left out (spec 7 rule 1); a form sends "" for an empty input.
  return (
    error.keyword === 'required' || (error.keyword === 'minLength' && error.params.limit === 1)
  );
}

function isConditional(error: ErrorObject): boolean {
  return error.schemaPath.startsWith('#/then');
}

/** What stands in the corrected body for a value only the person can give. */
export const TO_COMPLETE = '<à compléter';
const toComplete = (what: string, received?: unknown) =>
  `${TO_COMPLETE} : ${what}${received === undefined ? '' : ` (reçu : ${typeof received === 'string' ? received : JSON.stringify(received)})`}>`;

/**
 * One thing to fix: its error (`errors[]` of the answer), the fix in a few words for the combined
 * hint, and what it does to the corrected body.
 */
interface Problem extends FieldError {
  fix: string;
  apply?: (body: Record<string, unknown>) => void;
}

const schemaOf = (field: string, context: ValidationContext) =>
  (context.properties as Record<string, FieldSchema> | undefined)?.[field];
const labelOf = (field: string, context: ValidationContext) =>
  schemaOf(field, context)?.title ?? field;

function setAt(body: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let target = body;
  for (const segment of path.slice(0, -1)) {
    const next = target[segment];
    if (!next || typeof next !== 'object') return;
    target = next as Record<string, unknown>;
  }
  target[path[path.length - 1]!] = value;
}

function valueAt(body: unknown, path: readonly string[]): unknown {
  let value = body;
  for (const segment of path) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** The choices themselves when each comma-separated part is one, typed otherwise (« attirer »). */
function choicesFixed(value: unknown, choices: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const parts = value.split(',').map((part) => nameKey(part));
  const fixed = parts.map((part) => choices.find((choice) => nameKey(choice) === part));
  return fixed.every((choice) => choice !== undefined) ? fixed.join(',') : undefined;
}

function invalidProblem(
  field: string,
  problem: string,
  hint: string,
  fix: string,
  apply?: Problem['apply'],
): Problem {
  return {
    code: 'invalid_field',
    field,
    message: apiErrors.invalidField(field, problem, hint).message,
    hint,
    fix,
    ...(apply && { apply }),
  };
}

/** A refused value: what is wrong, how to fix it, and its place in the corrected body. */
function describeInvalid(error: ErrorObject, context: ValidationContext): Problem {
  const path = pathOf(error);
  const field = path.join('.') || 'corps';
  const medium = context.medium ?? 'json';
  const words = FIELD_WORDS[medium];
  const sent = valueAt(context.body, path);
  const label = labelOf(field, context);
  const placeholder = (what: string) => (body: Record<string, unknown>) =>
    setAt(body, path, toComplete(what, sent));
  const invalid = (problem: string, hint: string, apply?: Problem['apply']) =>
    invalidProblem(
      field,
      problem,
      hint,
      `${field} : ${hint.charAt(0).toLowerCase()}${hint.slice(1).replace(/\.$/, '')}`,
      apply,
    );
  const times = context.repeatedFields.get(field);
  if (times !== undefined) {
    // The joined value ("a@x.fr,b@x.fr") is not what the caller meant to send.
    return invalid(
      `le champ est envoyé ${times} fois`,
      `Envoyez « ${field} » une seule fois, avec une seule valeur.`,
    );
  }
  switch (error.keyword) {
    case 'format':
      return invalid(
        'l’adresse e-mail est mal formée',
        'Indiquez une adresse de la forme nom@domaine.fr.',
        placeholder('l’adresse e-mail de la personne, de la forme nom@domaine.fr'),
      );
    case 'maxLength':
      return invalid(
        `le texte dépasse ${error.params.limit} caractères`,
        `Raccourcissez-le à ${error.params.limit} caractères au plus.`,
        (body) =>
          setAt(body, path, toComplete(`${label}, ${error.params.limit} caractères au plus`)),
      );
    case 'x-phone':
      return invalid(
        'ce n’est pas un numéro de téléphone qui peut exister',
        'Indiquez le numéro de la personne en chiffres, par exemple 06 12 34 56 78 ou +32 470 12 34 56, ou laissez le champ de côté.',
        placeholder('numéro de téléphone en chiffres, par exemple 06 12 34 56 78'),
      );
    case 'pattern':
    case 'enum': {
      const choices =
        (error.params.allowedValues as string[] | undefined) ??
        schemaOf(field, context)?.['x-choices'] ??
        [];
      const list = choices.join(', ');
      const many = error.keyword === 'pattern';
      const fixed = choicesFixed(sent, choices);
      const words = many
        ? `une ou plusieurs de ces valeurs, séparées par des virgules : ${list}`
        : `l’une de : ${list}`;
      return invalid(
        `la valeur doit être ${words}`,
        fixed !== undefined
          ? `Écrivez « ${fixed} ».`
          : `Choisissez ${many ? 'une ou plusieurs des' : 'une des'} valeurs listées, écrites exactement ainsi.`,
        fixed !== undefined
          ? (body) => setAt(body, path, fixed)
          : placeholder(many ? `une ou plusieurs de ${list}, séparées par des virgules` : list),
      );
    }
    case 'type':
      // formData and consent are the object fields; every other field is a text.
      if (error.params.type === 'object' && field === 'consent') {
        return invalid(
          'un objet est attendu',
          'Envoyez un objet comme {"version": "…"} avec la version du texte de consentement accepté (voir /openapi.json).',
        );
      }
      return error.params.type === 'object'
        ? invalid(
            'un objet est attendu',
            'Envoyez un objet dont chaque clé est une question et chaque valeur la réponse, en texte.',
          )
        : invalid(
            'une chaîne de caractères est attendue',
            'Envoyez la valeur entre guillemets, comme texte.',
            typeof sent === 'number' || typeof sent === 'boolean'
              ? (body) => setAt(body, path, String(sent))
              : undefined,
          );
    case 'maxProperties':
      return invalid(
        `${error.params.limit} réponses au plus sont acceptées`,
        `Envoyez au plus ${error.params.limit} questions et leurs réponses.`,
      );
    default:
      return invalid(
        'la valeur est refusée',
        `Corrigez la valeur d’après la description de ${words.theOne}.`,
      );
  }
}

/** `formData[Question]` (the form spelling) sent as a JSON key: the answer belongs inside formData. */
const BRACKET_ANSWER = /^formData\[([^[\]]+)\]$/;

/**
 * An unknown field: a known one spelled otherwise (rename it, keeping its value), a JSON key in the
 * form spelling of an answer (move it into formData), or none (the accepted fields are named).
 */
function unknownProblem(sent: string, context: ValidationContext): Problem {
  const medium = context.medium ?? 'json';
  const words = FIELD_WORDS[medium];
  const body = (context.body ?? {}) as Record<string, unknown>;
  const question = BRACKET_ANSWER.exec(sent)?.[1];
  if (question !== undefined && context.knownFields.includes('formData')) {
    const into = medium === 'tool' ? 'l’argument formData' : 'l’objet formData';
    const fix = `placez la réponse dans ${into}, sous sa question : "formData": {${JSON.stringify(question)}: "la réponse"}`;
    return invalidProblem(
      sent,
      'en JSON, une réponse au questionnaire se place dans l’objet formData',
      `${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`,
      fix,
      (corrected) => {
        const answers = corrected.formData;
        corrected.formData = {
          ...(answers && typeof answers === 'object' ? answers : {}),
          [question]: corrected[sent],
        };
        delete corrected[sent];
      },
    );
  }
  const known = suggestField(sent, context.knownFields, context.person);
  if (known !== undefined && !(known in body)) {
    const fix = `renommez « ${sent} » en « ${known} »`;
    return invalidProblem(
      sent,
      `ce champ est inconnu ; vouliez-vous dire « ${known} » ?`,
      `${fix.charAt(0).toUpperCase()}${fix.slice(1)}, sans changer sa valeur.`,
      fix,
      (corrected) => {
        corrected[known] = corrected[sent];
        delete corrected[sent];
      },
    );
  }
  const accepted = context.knownFields.filter((name) => name !== 'consent');
  const answers = context.questionnaire?.answers;
  const where = answers
    ? ` Si sa valeur est une réponse de la personne au questionnaire, placez-la dans ${answers}, sous le texte de la question (voir /secteurs/<secteur>.json).`
    : '';
  const already =
    known !== undefined ? ` ; « ${known} », qu’il semble doubler, est déjà envoyé` : '';
  // docs/api-decisions.md, "Errors an agent can act on": its value may be something the person
  // said, so the hint names the accepted fields rather than telling to drop it.
  return invalidProblem(
    sent,
    `ce champ est inconnu${already}`,
    `Les ${words.many} acceptés sont ${quoteList(accepted)} : renommez-le en l’un d’eux s’il en porte la valeur.${where} Un ${words.one} qui ne porte rien de ce que la personne a dit peut être laissé de côté.`,
    `« ${sent} » est inconnu : renommez-le en l’un des ${words.many} acceptés s’il en porte la valeur, sinon laissez-le de côté (le corps corrigé le laisse de côté)`,
    (corrected) => {
      delete corrected[sent];
    },
  );
}

/** Answers sent beside the answers field, each moved into it (misplaced-answers.ts). */
function misplacedAnswerProblems(context: ValidationContext, unknown: string[]): Problem[] {
  const moved = misplacedAnswers(unknown, context.body, context.questionnaire);
  if (!moved) return [];
  const field = context.questionnaire!.answers;
  const medium = context.medium ?? 'json';
  const into = medium === 'tool' ? `l’argument ${field}` : `l’objet ${field}`;
  const problem = `c’est une réponse au questionnaire, attendue dans l’objet ${field}`;
  const hint =
    medium === 'form'
      ? `Dans un formulaire, chaque réponse voyage sous la clé ${field}[Question] : envoyez ${Object.entries(
          moved.answers,
        )
          .map(([question, answer]) => `${field}[${question}]=${answer}`)
          .join(' & ')}, les autres champs inchangés. Ne retirez aucune réponse.`
      : `Déplacez ${quoteList(moved.keys)} dans ${into}, sous le texte exact de chaque question, sans rien retirer.`;
  return moved.keys.map((key, index) =>
    invalidProblem(
      key,
      index === 0 && moved.keys.length > 1
        ? `${problem} (de même pour ${quoteList(moved.keys.slice(1))})`
        : problem,
      hint,
      `déplacez « ${key} » dans ${into}`,
      // The first moves them all (misplaced-answers.ts joins two spellings of one question).
      index === 0
        ? (corrected) => {
            for (const moving of moved.keys) delete corrected[moving];
            corrected[field] = moved.corrected[field];
          }
        : () => {},
    ),
  );
}

/**
 * The problems one answer lists: a request with thousands of unknown keys (docs/reliability.md,
 * "Hostile input") is told of the first ones, not answered with a megabyte.
 */
const MAX_PROBLEMS = 20;

/** Every problem of a request, in the order to read them: spellings, then missing, then values. */
function problemsOf(errors: ErrorObject[], context: ValidationContext): Problem[] {
  const unknown = errors
    .filter((error) => error.keyword === 'additionalProperties' && error.instancePath === '')
    .map((error) => String(error.params.additionalProperty))
    .slice(0, MAX_PROBLEMS);
  const moved = misplacedAnswerProblems(context, unknown);
  const movedKeys = new Set(moved.map((problem) => problem.field));
  const spelled = unknown
    .filter((sent) => !movedKeys.has(sent))
    .map((sent) => unknownProblem(sent, context));
  // A field renamed into place is not missing; Ajv checks if/then before `required`, so PRENOM and
  // EMAIL (always required) are named before the fields only the full form needs.
  const renamedTo = new Set(
    spelled.flatMap((problem) => /en « ([^»]+) »$/.exec(problem.fix)?.[1] ?? []),
  );
  const missing = [
    ...new Set(
      errors
        .filter(isMissing)
        .sort((a, b) => Number(isConditional(a)) - Number(isConditional(b)))
        .map((error) =>
          error.keyword === 'required' ? String(error.params.missingProperty) : fieldName(error),
        ),
    ),
  ]
    .filter((field) => !renamedTo.has(field))
    .map((field): Problem => {
      const single = apiErrors.missingFields([field], context.medium);
      return {
        code: 'missing_field',
        field,
        message: single.message,
        hint: single.hint,
        fix: `ajoutez « ${field} » (${labelOf(field, context)})`,
        apply: (corrected) => {
          corrected[field] = toComplete(labelOf(field, context));
        },
      };
    });
  const seen = new Set([
    ...movedKeys,
    ...spelled.map((p) => p.field),
    ...missing.map((p) => p.field),
  ]);
  const invalid: Problem[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || isMissing(error)) continue;
    if (error.keyword === 'additionalProperties' && error.instancePath === '') continue;
    const problem =
      error.keyword === 'additionalProperties'
        ? unknownProblem(
            `${fieldName(error)}${fieldName(error) ? '.' : ''}${String(error.params.additionalProperty)}`,
            { ...context, knownFields: [] },
          )
        : describeInvalid(error, context);
    if (seen.has(problem.field)) continue;
    seen.add(problem.field);
    invalid.push(problem);
  }
  return [...moved, ...spelled, ...missing, ...invalid].slice(0, MAX_PROBLEMS);
}

/** The body with every fix applied, placeholders where only the person can say. */
function correctedBody(problems: Problem[], context: ValidationContext): object | undefined {
  if (!context.body || typeof context.body !== 'object' || Array.isArray(context.body)) {
    return undefined;
  }
  const corrected = structuredClone(context.body) as Record<string, unknown>;
  for (const problem of problems) {
    if (!problem.apply) return undefined;
    problem.apply(corrected);
  }
  return corrected;
}

/**
 * docs/api-decisions.md, "Errors an agent can act on": every problem of the request at once, so a
 * caller fixes them in one try. `error` is the first to fix, as spec 2.5 shapes it; its hint fixes
 * them all and, for a JSON body or a tool's arguments, ends with the corrected body (every value
 * sent kept, `<à compléter : …>` where only the person can say); `errors` lists each one.
 */
export function validationToApiError(errors: ErrorObject[], context: ValidationContext): ApiError {
  const rootType = errors.find((error) => error.instancePath === '' && error.keyword === 'type');
  if (rootType)
    return apiErrors.invalidJson(
      context.example,
      'Le corps de la requête doit être un objet JSON.',
    );
  const problems = problemsOf(errors, context);
  const [first] = problems;
  // Left out of the list, so left out of the corrected body too: it could not be sent as is.
  const complete = problems.length < MAX_PROBLEMS;
  if (!first) return apiErrors.invalidJson(context.example);
  const medium = context.medium ?? 'json';
  // A missing field's hint is the catalog's, which already says where the fields are described.
  const list: FieldError[] = problems.map(({ code, field, message, hint }) => ({
    code,
    field,
    message,
    hint: hint.endsWith(SCHEMA_HINT[medium]) ? hint : `${hint} ${SCHEMA_HINT[medium]}`,
  }));
  const corrected = medium === 'form' || !complete ? undefined : correctedBody(problems, context);
  const what = medium === 'tool' ? 'Les arguments corrigés' : 'Le corps corrigé';
  const fill = JSON.stringify(corrected ?? {}).includes(TO_COMPLETE)
    ? ` Remplacez d’abord chaque valeur qui commence par ${TO_COMPLETE} par ce que la personne a dit.`
    : '';
  const body = corrected ? `${fill} ${what} : ${JSON.stringify(corrected)}` : '';
  const missing = problems.filter((problem) => problem.code === 'missing_field');
  if (missing.length === problems.length) {
    const error = apiErrors.missingFields(
      missing.map((problem) => problem.field) as [string, ...string[]],
      medium,
    );
    return new ApiError(error.code, error.message, `${error.hint}${body}`, {
      field: first.field,
      errors: list,
    });
  }
  const hint =
    problems.length === 1
      ? `${first.hint}${body}`
      : `Corrigez tout en une fois : ${problems.map((problem) => problem.fix).join(' ; ')}.${body}`;
  return new ApiError(first.code, first.message, `${hint} ${SCHEMA_HINT[medium]}`, {
    field: first.field,
    errors: list,
  });
}
