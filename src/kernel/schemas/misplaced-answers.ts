import { findQuestion } from './questionnaires.ts';
import { SECTORS, type Sector } from './sectors.ts';

/** Where a request's questionnaire answers belong, from its kind's descriptor (spec 2.3). */
export interface QuestionnaireFields {
  /** The object field holding the answers (`formData`). */
  answers: string;
  /** The field naming the sector (`sector`). */
  sector: string;
}

/** Objects an assistant may send its answers in, instead of the answers field. */
const ANSWER_GROUPS = new Set(['answers', 'questions', 'questionnaire', 'reponses', 'réponses']);

/** `[{question, answer}]` or `{question: answer}`: the pairs an answer group holds, as texts. */
function pairsOf(value: unknown): [string, string][] | undefined {
  if (Array.isArray(value)) {
    const pairs = value.map((item) => {
      if (!item || typeof item !== 'object') return undefined;
      const { question, answer, value: given } = item as Record<string, unknown>;
      const text = answer ?? given;
      return typeof question === 'string' && typeof text === 'string'
        ? ([question, text] as [string, string])
        : undefined;
    });
    return pairs.every((pair) => pair !== undefined) ? pairs : undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.every(([, answer]) => typeof answer === 'string')
    ? (entries as [string, string][])
    : undefined;
}

export interface MisplacedAnswers {
  /** The top-level keys that carry answers, as sent. */
  keys: string[];
  /** The answers, each under its question's exact text when the questionnaire has it. */
  answers: Record<string, string>;
  /** The body as it should have been sent: those keys moved into the answers field. */
  corrected: Record<string, unknown>;
}

/**
 * docs/api-decisions.md, "Errors an agent can act on": an answer sent beside the answers field (a
 * question's text as a top-level key, or an `answers` object) is a person's answer in the wrong
 * place. The hint moves it into `formData`; it never tells to drop it.
 */
export function misplacedAnswers(
  unknownKeys: readonly string[],
  body: unknown,
  fields: QuestionnaireFields | undefined,
): MisplacedAnswers | undefined {
  if (!fields || !body || typeof body !== 'object') return undefined;
  const sent = body as Record<string, unknown>;
  const named = sent[fields.sector];
  const sector = SECTORS.find((candidate) => candidate === named) as Sector | undefined;
  const keys: string[] = [];
  const answers: Record<string, string> = Object.create(null) as Record<string, string>;
  const file = (question: string, answer: string) => {
    const exact = findQuestion(sector, question)?.question ?? question;
    answers[exact] = exact in answers ? `${answers[exact]},${answer}` : answer;
  };
  for (const key of unknownKeys) {
    const value = sent[key];
    if (typeof value === 'string' && findQuestion(sector, key)) {
      keys.push(key);
      file(key, value);
      continue;
    }
    const pairs = ANSWER_GROUPS.has(key.toLowerCase()) ? pairsOf(value) : undefined;
    if (pairs) {
      keys.push(key);
      for (const [question, answer] of pairs) file(question, answer);
    }
  }
  if (keys.length === 0) return undefined;
  const kept = Object.fromEntries(Object.entries(sent).filter(([key]) => !keys.includes(key)));
  const already = kept[fields.answers];
  const corrected = {
    ...kept,
    [fields.answers]: {
      ...(already && typeof already === 'object' ? (already as object) : {}),
      ...answers,
    },
  };
  return { keys, answers, corrected };
}
