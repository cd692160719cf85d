import type { AgencyAlert } from './alerts.ts';
import { mailHtml, mailText, type MailPage } from '../../kernel/mail/mail-layout.ts';
import { headerSafe, type MailMessage, type MailSettings } from '../../kernel/mail/mail-message.ts';

/**
 * A delivery alert (docs/delivery.md, « Alerts ») as an e-mail to the agency, in its mail layout
 * (docs/emails.md): the subject names a lead, a stranger's words, so it is made header-safe.
 */
export function alertEmail(alert: AgencyAlert, settings: MailSettings): MailMessage {
  const { identity, siteUrl } = settings;
  const page: MailPage = { title: alert.title, preview: alert.subject, blocks: alert.blocks };
  return {
    role: 'dead-letter-alert',
    to: { name: identity.agencyName, address: settings.agencyEmail },
    subject: headerSafe(alert.subject, 150),
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
  };
}
