import type { Lead } from '../domain/lead.ts';
import { confirmationEmail } from './confirmation.ts';
import type { MailMessage, MailSettings } from './mail-message.ts';
import { agencyNotification } from './notification.ts';

/** The e-mails a lead gives rise to (spec 1 and 6: only a contact request confirms to the sender). */
export function messagesFor(lead: Lead, settings: MailSettings): MailMessage[] {
  const notification = agencyNotification(lead, settings);
  return lead.kind === 'contact'
    ? [confirmationEmail(lead, settings), notification]
    : [notification];
}
