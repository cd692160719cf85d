import { findQuestion } from '../../schemas/questionnaires.ts';
import {
  answersField,
  leadKindOf,
  textField,
  type LeadKindDescriptor,
  type LeadRequest,
} from '../../schemas/lead-kinds.ts';
import { SECTORS, type Sector } from '../../schemas/sectors.ts';

/** The sector whose questionnaire a request answers, in the field its kind's descriptor names. */
export function questionnaireSector(
  request: LeadRequest,
  kind: LeadKindDescriptor = leadKindOf(request.kind),
): Sector | undefined {
  const named = textField(request.data, kind.questionnaire?.sector);
  return SECTORS.find((sector) => sector === named);
}

/**
 * docs/api-decisions.md, "Questionnaires": spec 2.3 keeps formData a free map, but an answer whose
 * key is a questionnaire question typed otherwise (' for ’, a plain space for the no-break one) is
 * filed under the question's exact text, so the agency can match it. Other keys are kept as sent.
 * Two spellings of one question in the same request are joined with a comma, like a repeated field.
 */
export function withCanonicalQuestions<R extends LeadRequest>(
  request: R,
  kind: LeadKindDescriptor = leadKindOf(request.kind),
): R {
  const field = kind.questionnaire?.answers;
  const answers = answersField(request.data, field);
  if (field === undefined || !answers) return request;
  const sector = questionnaireSector(request, kind);
  // Keys are data: a null-prototype object keeps "__proto__" as an ordinary answer.
  const canonical = Object.create(null) as Record<string, string>;
  for (const [key, answer] of Object.entries(answers)) {
    const question = findQuestion(sector, key)?.question ?? key;
    canonical[question] = question in canonical ? `${canonical[question]},${answer}` : answer;
  }
  return { ...request, data: { ...request.data, [field]: canonical } };
}
