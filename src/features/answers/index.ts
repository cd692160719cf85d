/** What the other features use of answers (docs/architecture.md). */
export { ANSWER_DESTINATION } from './answers.ts';
export type { Answer, AnswerJournal, FirstAnswer } from './answers.ts';
export { registerAnswerRoutes, renderAnswerSection } from './answer-routes.ts';
