import { findQuestion } from '../schemas/questionnaires.ts';
import type { LeadRequest } from '../schemas/lead-kinds.ts';

/**
 * docs/api-decisions.md, "Questionnaires": spec 2.3 keeps formData a free map, but an answer whose
 * key is a questionnaire question typed otherwise (' for ’, a plain space for the no-break one) is
 * filed under the question's exact text, so the agency can match it. Other keys are kept as sent.
 * Two spellings of one question in the same request are joined with a comma, like a repeated field.
 */
export function withCanonicalQuestions(request: LeadRequest): LeadRequest {
  if (request.kind !== 'audit' || !request.data.formData) return request;
  // Keys are data: a null-prototype object keeps "__proto__" as an ordinary answer.
  const formData = Object.create(null) as Record<string, string>;
  for (const [key, answer] of Object.entries(request.data.formData)) {
    const question = findQuestion(request.data.sector, key)?.question ?? key;
    formData[question] = question in formData ? `${formData[question]},${answer}` : answer;
  }
  return { kind: 'audit', data: { ...request.data, formData } };
}
