import type { ErrorObject } from 'ajv';
import { apiErrors, type ApiError } from './error-catalog.ts';

/** "/formData/Question~1x" → "formData.Question/x": the name a caller wrote. */
function fieldName(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  return segments.join('.');
}

function isMissing(error: ErrorObject): boolean {
  // An empty required text is a field left out (spec 7 rule 1); a form sends "" for an empty input.
  return (
    error.keyword === 'required' || (error.keyword === 'minLength' && error.params.limit === 1)
  );
}

function isConditional(error: ErrorObject): boolean {
  return error.schemaPath.startsWith('#/then');
}

function describeInvalid(error: ErrorObject): ApiError {
  const field = fieldName(error);
  switch (error.keyword) {
    case 'format':
      return apiErrors.invalidField(
        field,
        'l’adresse e-mail est mal formée',
        'Indiquez une adresse de la forme nom@domaine.fr.',
      );
    case 'maxLength':
      return apiErrors.invalidField(
        field,
        `le texte dépasse ${error.params.limit} caractères`,
        `Raccourcissez-le à ${error.params.limit} caractères au plus.`,
      );
    case 'type':
      // formData is the only object field; every other field is a text.
      return error.params.type === 'object'
        ? apiErrors.invalidField(
            field,
            'un objet est attendu',
            'Envoyez un objet dont chaque clé est une question et chaque valeur la réponse, en texte.',
          )
        : apiErrors.invalidField(
            field,
            'une chaîne de caractères est attendue',
            'Envoyez la valeur entre guillemets, comme texte.',
          );
    case 'enum':
      return apiErrors.invalidField(
        field,
        `la valeur doit être l’une de : ${(error.params.allowedValues as string[]).join(', ')}`,
        'Choisissez une des valeurs listées.',
      );
    case 'additionalProperties':
      return apiErrors.invalidField(
        String(error.params.additionalProperty),
        'ce champ est inconnu',
        'Retirez ce champ : seuls les champs décrits sont acceptés.',
      );
    default:
      return apiErrors.invalidField(
        field || 'corps',
        'la valeur est refusée',
        'Corrigez la valeur d’après la description du champ.',
      );
  }
}

/** Picks the one error a caller should fix first: a missing field, else the first invalid value. */
export function validationToApiError(errors: ErrorObject[]): ApiError {
  const rootType = errors.find((error) => error.instancePath === '' && error.keyword === 'type');
  if (rootType) return apiErrors.invalidJson('Le corps de la requête doit être un objet JSON.');
  // Ajv checks if/then before `required`: report PRENOM/EMAIL (always required) before the
  // fields only the full form needs, so an empty body names PRENOM first.
  const missing = errors
    .filter(isMissing)
    .sort((a, b) => Number(isConditional(a)) - Number(isConditional(b)))[0];
  if (missing) {
    const field =
      missing.keyword === 'required' ? String(missing.params.missingProperty) : fieldName(missing);
    return apiErrors.missingField(field);
  }
  const invalid = errors.find((error) => error.keyword !== 'if') ?? errors[0];
  return invalid ? describeInvalid(invalid) : apiErrors.invalidJson();
}
