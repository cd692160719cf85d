import type { ErrorObject } from 'ajv';
import { apiErrors, FIELD_WORDS, quoteList, type ApiError, type Medium } from './error-catalog.ts';
import { misplacedAnswers, type QuestionnaireFields } from './misplaced-answers.ts';

export interface ValidationContext {
  /** The properties the request schema declares, to suggest the spelling of an unknown field. */
  knownFields: readonly string[];
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
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  return segments.join('.');
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

function describeInvalid(error: ErrorObject, context: ValidationContext): ApiError {
  const field = fieldName(error);
  const medium = context.medium ?? 'json';
  const words = FIELD_WORDS[medium];
  const invalidField = (problem: string, hint: string) =>
    apiErrors.invalidField(field, problem, hint, medium);
  const times = context.repeatedFields.get(field);
  if (times !== undefined) {
    // The joined value ("a@x.fr,b@x.fr") is not what the caller meant to send.
    return invalidField(
      `le champ est envoyé ${times} fois`,
      `Envoyez « ${field} » une seule fois, avec une seule valeur.`,
    );
  }
  switch (error.keyword) {
    case 'format':
      return invalidField(
        'l’adresse e-mail est mal formée',
        'Indiquez une adresse de la forme nom@domaine.fr.',
      );
    case 'maxLength':
      return invalidField(
        `le texte dépasse ${error.params.limit} caractères`,
        `Raccourcissez-le à ${error.params.limit} caractères au plus.`,
      );
    case 'type':
      // formData and consent are the object fields; every other field is a text.
      if (error.params.type === 'object' && field === 'consent') {
        return invalidField(
          'un objet est attendu',
          'Envoyez un objet comme {"version": "…"} avec la version du texte de consentement accepté (voir /openapi.json).',
        );
      }
      return error.params.type === 'object'
        ? invalidField(
            'un objet est attendu',
            'Envoyez un objet dont chaque clé est une question et chaque valeur la réponse, en texte.',
          )
        : invalidField(
            'une chaîne de caractères est attendue',
            'Envoyez la valeur entre guillemets, comme texte.',
          );
    case 'enum':
      return invalidField(
        `la valeur doit être l’une de : ${(error.params.allowedValues as string[]).join(', ')}`,
        'Choisissez une des valeurs listées.',
      );
    case 'maxProperties':
      return invalidField(
        `${error.params.limit} réponses au plus sont acceptées`,
        `Envoyez au plus ${error.params.limit} questions et leurs réponses.`,
      );
    case 'additionalProperties':
      return unknownField(String(error.params.additionalProperty), context);
    default:
      return apiErrors.invalidField(
        field || 'corps',
        'la valeur est refusée',
        `Corrigez la valeur d’après la description de ${words.theOne}.`,
        medium,
      );
  }
}

/**
 * An unknown field that is no known one spelled otherwise. Its value may be something the person
 * said: the hint names the accepted fields and, where answers are taken, where an answer goes,
 * rather than telling to drop it (docs/api-decisions.md, "Errors an agent can act on").
 */
function unknownField(field: string, context: ValidationContext): ApiError {
  const medium = context.medium ?? 'json';
  const words = FIELD_WORDS[medium];
  const accepted = context.knownFields.filter((name) => name !== 'consent');
  const answers = context.questionnaire?.answers;
  const where = answers
    ? ` Si sa valeur est une réponse de la personne au questionnaire, placez-la dans ${answers}, sous le texte de la question (voir /secteurs/<secteur>.json).`
    : '';
  return apiErrors.invalidField(
    field,
    'ce champ est inconnu',
    `Les ${words.many} acceptés sont ${quoteList(accepted)} : renommez-le en l’un d’eux s’il en porte la valeur.${where} Un ${words.one} qui ne porte rien de ce que la personne a dit peut être laissé de côté.`,
    medium,
  );
}

/** The same body with each misplaced answer moved into the answers field, as this caller sends it. */
function misplacedAnswersError(
  moved: NonNullable<ReturnType<typeof misplacedAnswers>>,
  field: string,
  medium: Medium,
): ApiError {
  const [first] = moved.keys as [string, ...string[]];
  const others = moved.keys.length > 1 ? ` (de même pour ${quoteList(moved.keys.slice(1))})` : '';
  const problem = `c’est une réponse au questionnaire, attendue dans l’objet ${field}${others}`;
  if (medium === 'form') {
    const pairs = Object.entries(moved.answers)
      .map(([question, answer]) => `${field}[${question}]=${answer}`)
      .join(' & ');
    return apiErrors.invalidField(
      first,
      problem,
      `Dans un formulaire, chaque réponse voyage sous la clé ${field}[Question] : envoyez ${pairs}, les autres champs inchangés. Ne retirez aucune réponse.`,
      medium,
    );
  }
  const what = medium === 'tool' ? 'Les arguments corrigés' : 'Le corps corrigé';
  const into = medium === 'tool' ? `l’argument ${field}` : `l’objet ${field}`;
  return apiErrors.invalidField(
    first,
    problem,
    `Déplacez ${quoteList(moved.keys)} dans ${into}, sous le texte exact de chaque question, sans rien retirer. ${what} : ${JSON.stringify(moved.corrected)}`,
    medium,
  );
}

/** `formData[Question]` (the form spelling) sent as a JSON key: the answer belongs inside formData. */
const BRACKET_ANSWER = /^formData\[([^[\]]+)\]$/;

interface Misplaced {
  sent: string;
  problem: string;
  fix: string;
}

/** An unknown field that is a known one spelled otherwise: say which, rather than "remove it". */
function misplacedField(
  sent: string,
  knownFields: readonly string[],
  medium: Medium,
): Misplaced | undefined {
  const question = BRACKET_ANSWER.exec(sent)?.[1];
  if (question !== undefined && knownFields.includes('formData')) {
    const into = medium === 'tool' ? 'l’argument formData' : 'l’objet formData';
    return {
      sent,
      problem: 'en JSON, une réponse au questionnaire se place dans l’objet formData',
      fix: `placez la réponse dans ${into}, sous sa question : "formData": {${JSON.stringify(question)}: "la réponse"}`,
    };
  }
  const known = knownFields.find(
    (name) => name !== sent && name.toLowerCase() === sent.toLowerCase(),
  );
  if (known === undefined) return undefined;
  return {
    sent,
    problem: `ce champ est inconnu ; vouliez-vous dire « ${known} » ?`,
    fix: `renommez « ${sent} » en « ${known} »`,
  };
}

function misplacedError(misplaced: Misplaced[], medium: Medium): ApiError {
  const [first, ...others] = misplaced as [Misplaced, ...Misplaced[]];
  const more = others.length ? ` (de même pour ${quoteList(others.map((m) => m.sent))})` : '';
  const fixes = misplaced.map((m) => m.fix).join(' ; ');
  return apiErrors.invalidField(
    first.sent,
    `${first.problem}${more}`,
    `${fixes.charAt(0).toUpperCase()}${fixes.slice(1)}.`,
    medium,
  );
}

/**
 * The error a caller should fix first, with everything it needs to fix it in one go: fields spelled
 * otherwise (case, formData nesting), then every missing field, then the first invalid value.
 */
export function validationToApiError(errors: ErrorObject[], context: ValidationContext): ApiError {
  const rootType = errors.find((error) => error.instancePath === '' && error.keyword === 'type');
  if (rootType)
    return apiErrors.invalidJson(
      context.example,
      'Le corps de la requête doit être un objet JSON.',
    );

  const unknown = errors
    .filter((error) => error.keyword === 'additionalProperties' && error.instancePath === '')
    .map((error) => String(error.params.additionalProperty));
  const moved = misplacedAnswers(unknown, context.body, context.questionnaire);
  if (moved) {
    return misplacedAnswersError(moved, context.questionnaire!.answers, context.medium ?? 'json');
  }
  const medium = context.medium ?? 'json';
  const misplaced = unknown
    .map((sent) => misplacedField(sent, context.knownFields, medium))
    .filter((entry) => entry !== undefined);
  if (misplaced.length) return misplacedError(misplaced, medium);

  // Ajv checks if/then before `required`: name PRENOM/EMAIL (always required) before the fields
  // only the full form needs.
  const missing = errors
    .filter(isMissing)
    .sort((a, b) => Number(isConditional(a)) - Number(isConditional(b)))
    .map((error) =>
      error.keyword === 'required' ? String(error.params.missingProperty) : fieldName(error),
    );
  const [firstMissing, ...otherMissing] = [...new Set(missing)];
  if (firstMissing !== undefined) {
    return apiErrors.missingFields([firstMissing, ...otherMissing], context.medium);
  }

  const invalid = errors.find((error) => error.keyword !== 'if') ?? errors[0];
  return invalid ? describeInvalid(invalid, context) : apiErrors.invalidJson(context.example);
}
