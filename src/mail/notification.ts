import { questionnaireSector } from '../domain/audit-answers.ts';
import type { Lead } from '../domain/lead.ts';
import { emailOf, firstNameOf } from '../domain/lead.ts';
import { leadKindOf, textField, type LeadKindDescriptor } from '../schemas/lead-kinds.ts';
import { findQuestion } from '../schemas/questionnaires.ts';
import { escapeHtml, headerSafe, type MailMessage, type MailSettings } from './mail-message.ts';

/** An answer the questionnaire has no question for: kept (spec 2.3), but the agency is told. */
const OFF_QUESTIONNAIRE = ' (hors questionnaire)';

/** Every field of the lead, for the agency's inbox; questionnaire answers are listed one per line. */
export function leadFields(
  lead: Lead,
  kind: LeadKindDescriptor = leadKindOf(lead.kind),
): [string, string][] {
  const sector = questionnaireSector(lead, kind);
  const rows: [string, string][] = [];
  for (const [name, value] of Object.entries(lead.data)) {
    if (typeof value === 'string') rows.push([name, value]);
    else if (value && typeof value === 'object') {
      for (const [question, answer] of Object.entries(value)) {
        const known = findQuestion(sector, question)?.question === question;
        rows.push([known ? question : `${question}${OFF_QUESTIONNAIRE}`, String(answer)]);
      }
    }
  }
  return rows;
}

/** What the journal knew of the address before this lead (docs/consent.md). */
export interface LeadHistory {
  /** Subscription requests of the same address received before this one. */
  earlier: number;
}

/** A plain line for a repeated request: the agency sees it is not a new person. */
function repeatLine({ earlier }: LeadHistory): string {
  if (earlier === 0) return '';
  const times = earlier === 1 ? 'une fois' : `${earlier} fois`;
  return ` Demande répétée : cette adresse avait déjà demandé l’inscription ${times} auparavant.`;
}

export function agencyNotification(
  lead: Lead,
  settings: MailSettings,
  kind: LeadKindDescriptor = leadKindOf(lead.kind),
  history: LeadHistory = { earlier: 0 },
): MailMessage {
  const fields = leadFields(lead, kind);
  const who = headerSafe(firstNameOf(lead, kind), 60);
  const detail = textField(lead.data, kind.fields.subjectDetail);
  const title = `${kind.notificationTitle}${detail ? ` (${detail})` : ''}`;
  // docs/reliability.md: the caps on e-mails to unverified addresses held this one back.
  const heldBack = lead.confirmationHeldBack
    ? ' Aucun e-mail n’a été envoyé à cette adresse : trop de demandes récentes pour cette boîte ou ce domaine.'
    : '';
  const intro = `${title}, reçue le ${lead.receivedAt.toISOString()} (réf. ${lead.id}).${heldBack}${repeatLine(history)}`;
  const text = [intro, '', ...fields.map(([name, value]) => `${name} : ${value}`)].join('\n');
  const rows = fields
    .map(
      ([name, value]) =>
        `<tr><th align="left">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  return {
    role: 'notification',
    to: { name: 'Agence', address: settings.agencyEmail },
    // Brevo caps replyTo.name at 70 characters.
    replyTo: { name: who, address: emailOf(lead, kind) },
    subject: headerSafe(`${title} : ${who}`, 150),
    text,
    html: `<!doctype html><html lang="fr"><body><p>${escapeHtml(intro)}</p><table>${rows}</table></body></html>`,
  };
}
