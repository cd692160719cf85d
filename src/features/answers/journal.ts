import type { AnswerJournal } from './answers.ts';

/** The part of the journal's port that answers owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /** docs/workspace.md, « Répondre »: the e-mails and calls the team answered leads with. */
    readonly answers: AnswerJournal;
  }
}
