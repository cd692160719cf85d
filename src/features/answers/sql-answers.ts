import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { planAgain } from '../../kernel/journal/step-rows.ts';
import type { Database, LeadAnswersTable } from '../../kernel/journal/tables.ts';
import type { LeadKind } from '../../kernel/schemas/lead-kinds.ts';
import {
  ANSWER_DESTINATION,
  type Answer,
  type AnswerChannel,
  type AnswerJournal,
  type FirstAnswer,
  type NewAnswer,
} from './answers.ts';

/** The answers in SQL that SQLite and PostgreSQL both run (docs/workspace.md, « Répondre »). */
export class SqlAnswers implements AnswerJournal {
  constructor(private readonly db: Kysely<Database>) {}

  record(answer: NewAnswer): Promise<Answer> {
    const row: LeadAnswersTable = {
      id: randomUUID(),
      lead_id: answer.leadId,
      at: answer.at.toISOString(),
      staff_id: answer.by.id,
      staff_name: answer.by.name,
      channel: answer.channel,
      subject: answer.subject,
      body: answer.body,
      in_reply_to: answer.inReplyTo,
      sent_detail: null,
      sent_at: null,
    };
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto('lead_answers').values(row).execute();
      // docs/workspace.md, « La promesse des 24 heures ouvrées »: the first answer ends the promise.
      await trx
        .updateTable('leads')
        .set({ answered_at: row.at })
        .where('id', '=', answer.leadId)
        .where('answered_at', 'is', null)
        .execute();
      if (answer.channel === 'email') {
        // docs/delivery.md: a later answer opens the lead's step again, due now, as a new one; a
        // run in progress then leaves it due (src/kernel/journal/step-rows.ts).
        const target = { destination: ANSWER_DESTINATION, provider: answer.provider };
        await planAgain(
          trx,
          { id: answer.leadId, receivedAt: answer.receivedAt },
          target,
          answer.at,
        );
      }
      return answerOf(row);
    });
  }

  list(leadId: string): Promise<Answer[]> {
    return this.answersOf(leadId, false);
  }

  unsent(leadId: string): Promise<Answer[]> {
    return this.answersOf(leadId, true);
  }

  /** A lead's answers, oldest first; `unsent`: only its e-mails not sent yet. */
  private async answersOf(leadId: string, unsent: boolean): Promise<Answer[]> {
    let query = this.db.selectFrom('lead_answers').selectAll().where('lead_id', '=', leadId);
    if (unsent) query = query.where('channel', '=', 'email').where('sent_at', 'is', null);
    const rows = await query.orderBy('at').orderBy('id').execute();
    return rows.map(answerOf);
  }

  async markSent(id: string, detail: string, at: Date): Promise<void> {
    await this.db
      .updateTable('lead_answers')
      .set({ sent_detail: detail.slice(0, 500), sent_at: at.toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async firstAnswers(from: Date, to: Date): Promise<FirstAnswer[]> {
    // A lead's first answer is the one at its `answered_at` (set by `record`), read by a join
    // rather than by looking for an earlier answer of each (docs/performance.md, « The workspace »).
    const rows = await this.db
      .selectFrom('lead_answers as answer')
      .innerJoin('leads', 'leads.id', 'answer.lead_id')
      .select([
        'answer.lead_id',
        'answer.at',
        'answer.staff_id',
        'answer.staff_name',
        'leads.kind',
        'leads.received_at',
      ])
      .where('answer.at', '>=', from.toISOString())
      .where('answer.at', '<', to.toISOString())
      .whereRef('leads.answered_at', '=', 'answer.at')
      .orderBy('answer.at')
      .orderBy('answer.id')
      .execute();
    // Two answers of a lead in its first millisecond: the first as its answers are listed (by id).
    const counted = new Set<string>();
    const firsts = rows.filter((row) => !counted.has(row.lead_id) && counted.add(row.lead_id));
    return firsts.map((row) => ({
      leadId: row.lead_id,
      kind: row.kind as LeadKind,
      receivedAt: new Date(row.received_at),
      at: new Date(row.at),
      by: { id: row.staff_id, name: row.staff_name },
    }));
  }
}

function answerOf(row: Selectable<LeadAnswersTable>): Answer {
  return {
    id: row.id,
    leadId: row.lead_id,
    at: new Date(row.at),
    by: { id: row.staff_id, name: row.staff_name },
    channel: row.channel as AnswerChannel,
    subject: row.subject,
    body: row.body,
    inReplyTo: row.in_reply_to,
    sentDetail: row.sent_detail,
    sentAt: row.sent_at === null ? null : new Date(row.sent_at),
  };
}
