import type { AgencyAlert } from './alerts.ts';
import { escapeHtml, type MailMessage, type MailSettings } from '../../kernel/mail/mail-message.ts';

/** A delivery alert (docs/delivery.md, « Alerts ») as an e-mail to the agency: its lines, as written. */
export function alertEmail(alert: AgencyAlert, settings: MailSettings): MailMessage {
  const [intro = '', ...rest] = alert.text.split('\n');
  return {
    role: 'dead-letter-alert',
    to: { name: 'Agence', address: settings.agencyEmail },
    subject: alert.subject,
    text: alert.text,
    html: `<!doctype html><html lang="fr"><body><p>${escapeHtml(intro)}</p><ul>${rest
      .filter((line) => line !== '')
      .map((line) => `<li>${escapeHtml(line)}</li>`)
      .join('')}</ul></body></html>`,
  };
}
