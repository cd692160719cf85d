import { escapeHtml } from '../../../kernel/mail/mail-message.ts';

/** The one HTML escaping of the project, shared with the e-mails. */
export { escapeHtml };

/** Boolean and valued attributes from a record; undefined/false values are left out. */
export function attributes(record: Record<string, string | number | boolean | undefined>): string {
  return Object.entries(record)
    .filter(([, value]) => value !== undefined && value !== false)
    .map(([name, value]) =>
      value === true ? ` ${name}` : ` ${name}="${escapeHtml(value as string | number)}"`,
    )
    .join('');
}
