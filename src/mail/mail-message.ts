export interface MailSettings {
  from: string;
  agencyEmail: string;
  siteUrl: string;
}

export interface MailAddress {
  name: string;
  address: string;
}

/** One e-mail, provider-neutral: nodemailer and Brevo's /smtp/email both take these parts. */
export interface MailMessage {
  /** Stable per lead, so a provider can tell a retry from a new message. */
  role: 'confirmation' | 'notification';
  to: MailAddress;
  replyTo?: MailAddress;
  subject: string;
  text: string;
  html: string;
}

/** Header values come from strangers: a CR or LF would let them add headers of their own. */
export function headerSafe(value: string, maxLength: number): string {
  return value.replace(/[\r\n\t\u2028\u2029]+/g, ' ').trim().slice(0, maxLength);
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
