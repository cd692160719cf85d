import { emailOf, type Lead } from '../../kernel/lead/lead.ts';
import { mailHtml, mailText, type MailPage } from '../../kernel/mail/mail-layout.ts';
import type { MailMessage, MailSettings } from '../../kernel/mail/mail-message.ts';
import type { Answer } from './answers.ts';

/**
 * docs/emails.md, « La réponse de l’équipe »: the staff member's text as typed, in the site's
 * design, from MAIL_FROM under their name, answered to `replyTo` (INBOUND_ADDRESS, else
 * AGENCY_EMAIL) and threaded under the confirmation the person received.
 */
export function answerEmail(
  lead: Lead,
  answer: Answer,
  settings: MailSettings,
  replyTo: string,
): MailMessage {
  const { identity, siteUrl } = settings;
  const page: MailPage = {
    title: answer.subject ?? identity.agencyName,
    blocks: [
      ...answer.body
        .split(/\r?\n\s*\r?\n/)
        .filter((paragraph) => paragraph.trim())
        .map((text) => ({ kind: 'paragraph' as const, text: text.trim() })),
      { kind: 'signature', lines: [answer.by.name, identity.agencyName] },
    ],
  };
  return {
    role: 'answer',
    to: { name: '', address: emailOf(lead) },
    senderName: `${answer.by.name} – ${identity.agencyName}`,
    replyTo: { name: identity.agencyName, address: replyTo },
    ...(answer.inReplyTo && { inReplyTo: answer.inReplyTo }),
    subject: page.title,
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
    // The outbox keeps a copy under the answer's id: erased with the lead's person (docs/consent.md).
    mentions: [lead.id],
  };
}
