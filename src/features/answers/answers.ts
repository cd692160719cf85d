import type { LeadKind } from '../../kernel/schemas/lead-kinds.ts';

/*
 * docs/workspace.md, « Répondre »: the answers the team gives a lead from its page. An e-mail answer
 * is journaled first, then sent by the `staff-answer` delivery step (docs/delivery.md), retried and
 * sent once like every step; a call is recorded only. Either one makes the lead « Répondu ».
 */

/** The delivery step that sends a lead's e-mail answers, stored with each step: never renamed. */
export const ANSWER_DESTINATION = 'staff-answer';

/**
 * `email`: written and sent from the workspace; `phone`: a call; `mailbox`: an e-mail the staff
 * member wrote from their own mail client (« Écrire depuis ma messagerie »), recorded by hand.
 */
export type AnswerChannel = 'email' | 'phone' | 'mailbox';

/** Who answered: a staff account's id and the name it had then. */
export interface AnswerAuthor {
  id: string;
  name: string;
}

export interface Answer {
  id: string;
  leadId: string;
  at: Date;
  by: AnswerAuthor;
  channel: AnswerChannel;
  subject: string | null;
  /** The e-mail's text, or the call's note. */
  body: string;
  /** The confirmation's Message-ID it threads under (docs/emails.md); null when none is known. */
  inReplyTo: string | null;
  /** What the provider answered when it took the e-mail (its Message-ID); null until sent. */
  sentDetail: string | null;
  sentAt: Date | null;
}

export type NewAnswer = Omit<Answer, 'id' | 'sentDetail' | 'sentAt'> & {
  /** The lead's arrival, copied on its delivery step (docs/delivery.md). */
  receivedAt: Date;
  /** The provider that sends an e-mail answer (the step's); unused for a call. */
  provider: string;
};

/** A lead's first answer, what the answer promise is measured on (docs/workspace.md). */
export interface FirstAnswer {
  leadId: string;
  kind: LeadKind;
  receivedAt: Date;
  at: Date;
  by: AnswerAuthor;
}

/** The answers' part of the journal, on both dialects. */
export interface AnswerJournal {
  /**
   * Journals the answer; an e-mail's `staff-answer` step is made due now in the same transaction
   * (a step the lead has already, done or not, is opened again: its run sends every unsent answer).
   */
  record(answer: NewAnswer): Promise<Answer>;
  /** A lead's answers, oldest first. */
  list(leadId: string): Promise<Answer[]>;
  /** A lead's e-mail answers not sent yet, oldest first. */
  unsent(leadId: string): Promise<Answer[]>;
  markSent(id: string, detail: string, at: Date): Promise<void>;
  /** The leads whose first answer was given in [from, to). */
  firstAnswers(from: Date, to: Date): Promise<FirstAnswer[]>;
}
