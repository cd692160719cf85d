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

/**
 * Header values come from strangers: a CR or LF would let them add headers of their own (issue 4), and
 * other control characters (NUL, VT, NEL, U+2028…) confuse some mail software. Cut by code point, so a
 * bound never splits an emoji into half a surrogate pair.
 */
export function headerSafe(value: string, maxLength: number): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  const flat = value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return Array.from(flat).slice(0, maxLength).join('').trim();
}

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
