import {
  findQuestion,
  matchQuestion,
  questionnairePath,
} from '../../kernel/schemas/questionnaires.ts';
import {
  answersField,
  leadKindOf,
  textField,
  type LeadKindDescriptor,
  type LeadRequest,
} from '../../kernel/schemas/lead-kinds.ts';
import { SECTORS, type Sector } from '../../kernel/schemas/sectors.ts';

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
 * key is a questionnaire question typed otherwise (' for ’, a plain space for the no-break one) or
 * nearly (punctuation, accents, case, spaces) is filed under the question's exact text, so the
 * agency can match it. Other keys are kept as sent.
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

/** Something kept as sent that the caller may want to check (spec 2.4 answer, optional `warnings`). */
export interface AnswerWarning {
  code: 'no_answers' | 'unknown_choice' | 'question_matched' | 'email_typo';
  message: string;
  field?: string;
}

const sameChoice = (a: string, b: string) =>
  a.normalize('NFC').trim().toLowerCase() === b.normalize('NFC').trim().toLowerCase();

/**
 * docs/api-decisions.md, "Questionnaires": an audit is never refused over its answers (a lead is not
 * lost over a paraphrase), but the caller is told what the agency will read with care: no answer at
 * all, an answer outside a question's choices, or a key that nearly was a question (filed under it).
 * It reads the request as received, so each warning names the key as the caller wrote it.
 */
export function answerWarnings(request: LeadRequest): AnswerWarning[] {
  const kind = leadKindOf(request.kind);
  const field = kind.questionnaire?.answers;
  if (field === undefined) return [];
  const sector = questionnaireSector(request, kind);
  const where = sector ? questionnairePath(sector) : '/secteurs/<secteur>.json';
  const answers = Object.entries(answersField(request.data, field) ?? {});
  if (answers.length === 0) {
    return [
      {
        code: 'no_answers',
        field,
        message: `Aucune réponse au questionnaire : la demande est enregistrée, mais l’audit sera plus précis avec les réponses de la personne (questions sur ${where}).`,
      },
    ];
  }
  const warnings: AnswerWarning[] = [];
  for (const [key, answer] of answers) {
    const match = matchQuestion(sector, key);
    if (match?.near) {
      warnings.push({
        code: 'question_matched',
        field: `${field}.${key}`,
        message: `« ${key} » n’est pas écrite comme la question du questionnaire : la réponse est rangée sous « ${match.question.question} ». Reprenez le texte exact la prochaine fois (${where}).`,
      });
    }
    const question = match?.question;
    // A key no question asked is kept and marked in the agency's notification (notification.ts).
    if (
      question?.answer === 'choice' &&
      !question.choices.some((choice) => sameChoice(choice, answer))
    ) {
      warnings.push({
        code: 'unknown_choice',
        field: `${field}.${key}`,
        message: `« ${answer} » ne fait pas partie des choix proposés (${question.choices.map((choice) => `« ${choice} »`).join(', ')}) : la réponse est gardée telle quelle.`,
      });
    }
  }
  return warnings;
}
