import { answersField, leadKindOf, type LeadRequest } from '../../schemas/lead-kinds.ts';
import { findQuestion, questionnairePath } from '../../schemas/questionnaires.ts';
import { questionnaireSector } from './audit-answers.ts';

/** Something kept as sent that the caller may want to check (spec 2.4 answer, optional `warnings`). */
export interface AnswerWarning {
  code: 'no_answers' | 'unknown_choice';
  message: string;
  field?: string;
}

const sameChoice = (a: string, b: string) =>
  a.normalize('NFC').trim().toLowerCase() === b.normalize('NFC').trim().toLowerCase();

/**
 * docs/api-decisions.md, "Questionnaires": an audit is never refused over its answers (a lead is not
 * lost over a paraphrase), but the caller is told what the agency will read with care: no answer at
 * all, or an answer outside a question's choices.
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
    const question = findQuestion(sector, key);
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
