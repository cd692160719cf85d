import type { ErrorObject } from 'ajv';
import { fieldName, isMissing } from '../schemas/validation-errors.ts';

/** One field a person must fix, as the form names it (`formData[Question]` for an answer). */
export interface FieldProblem {
  field: string;
  kind: 'missing' | 'email' | 'tooLong' | 'invalid';
  limit?: number;
}

/** "formData.Question" (the API's spelling) → "formData[Question]" (the form's input name). */
function formName(field: string): string {
  return field.startsWith('formData.') ? `formData[${field.slice('formData.'.length)}]` : field;
}

function problemOf(error: ErrorObject): FieldProblem | undefined {
  if (error.keyword === 'if') return undefined;
  if (isMissing(error)) {
    const field =
      error.keyword === 'required' ? String(error.params.missingProperty) : fieldName(error);
    return { field: formName(field), kind: 'missing' };
  }
  if (error.keyword === 'additionalProperties') {
    return { field: String(error.params.additionalProperty), kind: 'invalid' };
  }
  const field = formName(fieldName(error));
  if (error.keyword === 'format') return { field, kind: 'email' };
  if (error.keyword === 'maxLength') {
    return { field, kind: 'tooLong', limit: Number(error.params.limit) };
  }
  return { field, kind: 'invalid' };
}

/**
 * Every field a person must fix, at once, one problem a field (a missing field first): where the
 * JSON answer names the first thing to fix for a program, a person corrects the whole form in one go.
 */
export function fieldProblems(errors: ErrorObject[]): FieldProblem[] {
  const byField = new Map<string, FieldProblem>();
  const problems = errors.map(problemOf).filter((problem) => problem !== undefined);
  problems.sort((a, b) => Number(b.kind === 'missing') - Number(a.kind === 'missing'));
  for (const problem of problems) {
    if (!byField.has(problem.field)) byField.set(problem.field, problem);
  }
  return [...byField.values()];
}
