import type { Lead } from '../../kernel/lead/lead.ts';
import { emailOf, firstNameOf } from '../../kernel/lead/lead.ts';
import { CHANNEL_LABELS, sectorLabel, sentByAssistant } from '../../kernel/schemas/field-labels.ts';
import { leadKindOf, textField, type LeadKindDescriptor } from '../../kernel/schemas/lead-kinds.ts';
import { frenchDateTime } from '../../kernel/lead/french-date.ts';
import { agencyRows, answerRows } from './lead-summary.ts';
import type { MailBlock } from '../../kernel/mail/mail-blocks.ts';
import { mailHtml, mailText, type MailPage } from '../../kernel/mail/mail-layout.ts';
import { headerSafe, type MailMessage, type MailSettings } from '../../kernel/mail/mail-message.ts';

/** The lead's page in the agency's workspace (docs/emails.md; the workspace lives under /equipe). */
export function workspaceLeadUrl(siteUrl: string, leadId: string): string {
  return `${siteUrl}/equipe/prospects/${encodeURIComponent(leadId)}`;
}

/** « Marie Dupont »: the first name and, when given, the last name. */
function fullName(lead: Lead, kind: LeadKindDescriptor): string {
  const last = textField(lead.data, kind.fields.lastName);
  return [firstNameOf(lead, kind), last].filter(Boolean).join(' ');
}

/** « Nouvelle demande d’audit : Paul Martin, Artisans et entreprises du BTP (assistant IA) ». */
function subjectOf(lead: Lead, kind: LeadKindDescriptor, who: string): string {
  const value = textField(lead.data, kind.fields.subjectDetail);
  const detail =
    value && kind.fields.subjectDetail === kind.questionnaire?.sector ? sectorLabel(value) : value;
  const assistant = sentByAssistant(lead.consent?.channel) ? ' (assistant IA)' : '';
  return headerSafe(
    `${kind.notificationTitle} : ${who}${detail ? `, ${detail}` : ''}${assistant}`,
    150,
  );
}

/** What the journal knew of the address before this lead (docs/consent.md). */
export interface LeadHistory {
  /** Subscription requests of the same address received before this one. */
  earlier: number;
}

/** A plain line for a repeated request: the agency sees it is not a new person. */
function repeatLine({ earlier }: LeadHistory): string | undefined {
  if (earlier === 0) return undefined;
  const times = earlier === 1 ? 'une fois' : `${earlier} fois`;
  return `Demande répétée : cette adresse avait déjà demandé l’inscription ${times} auparavant.`;
}

/**
 * The agency's e-mail for every lead (docs/emails.md): every field under its French label, the
 * questionnaire's answers under their questions, when (Paris time) and through which channel, the
 * consent proof, a link to the lead's page in the workspace; « Répondre » writes to the person.
 */
export function agencyNotification(
  lead: Lead,
  settings: MailSettings,
  kind: LeadKindDescriptor = leadKindOf(lead.kind),
  history: LeadHistory = { earlier: 0 },
): MailMessage {
  const { identity, siteUrl } = settings;
  // docs/reliability.md: the caps on e-mails to unverified addresses held the confirmation back.
  const repeat = repeatLine(history);
  const who = fullName(lead, kind);
  const address = emailOf(lead, kind);
  const { consent } = lead;
  const channel = consent ? CHANNEL_LABELS[consent.channel] : 'non enregistré';
  const answers = answerRows(lead, kind);
  const sector = textField(lead.data, kind.questionnaire?.sector);
  const blocks: MailBlock[] = [
    {
      kind: 'paragraph',
      text: `Reçue le ${frenchDateTime(lead.receivedAt)} (heure de Paris), par : ${channel}.`,
    },
    ...(repeat ? [{ kind: 'paragraph' as const, text: repeat }] : []),
    // docs/reliability.md: the caps on e-mails to unverified addresses held this one back.
    ...(lead.confirmationHeldBack
      ? [
          {
            kind: 'paragraph' as const,
            text: 'Aucun e-mail n’a été envoyé à cette adresse : trop de demandes récentes pour cette boîte ou ce domaine.',
          },
        ]
      : []),
    ...(sentByAssistant(consent?.channel)
      ? [
          {
            kind: 'paragraph' as const,
            text: 'Un assistant IA a envoyé cette demande pour la personne, avec son accord déclaré.',
          },
        ]
      : []),
    {
      kind: 'button',
      label: 'Ouvrir la demande dans l’espace équipe',
      url: workspaceLeadUrl(siteUrl, lead.id),
    },
    {
      kind: 'paragraph',
      text: `« Répondre » à cet e-mail écrit directement à ${who || 'la personne'} (${address}).`,
    },
    { kind: 'heading', text: 'La personne et sa demande' },
    { kind: 'fields', rows: agencyRows(lead, kind) },
    ...(answers.length > 0
      ? [
          {
            kind: 'heading' as const,
            text: `Réponses au questionnaire${sector ? ` : ${sectorLabel(sector)}` : ''}`,
          },
          { kind: 'fields' as const, rows: answers },
        ]
      : []),
    ...(consent
      ? [
          { kind: 'heading' as const, text: 'Consentement' },
          {
            kind: 'paragraph' as const,
            small: true,
            text: `Texte accepté : version ${consent.version}, le ${frenchDateTime(consent.givenAt)}, par : ${channel}${consent.page ? `, page ${consent.page}` : ''}.`,
          },
        ]
      : []),
    { kind: 'paragraph', small: true, text: `Référence de la demande : ${lead.id}` },
  ];
  const page: MailPage = { title: kind.notificationTitle, blocks };
  return {
    role: 'notification',
    to: { name: identity.agencyName, address: settings.agencyEmail },
    // Brevo caps replyTo.name at 70 characters.
    replyTo: { name: headerSafe(who, 60), address },
    subject: subjectOf(lead, kind, headerSafe(who, 60)),
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
  };
}
