/**
 * docs/emails.md, « One line stays one line »: a value meant to be one line (a name, a service, a
 * phone number: a text field of at most ONE_LINE_MAX_LENGTH characters in its schema, where a
 * message has thousands) is shown on one line wherever the team reads it: the summary, the
 * notification, an alert, a page heading. A line break typed into it would otherwise start a
 * paragraph of its own inside a trusted e-mail (« Alerte sécurité : reconnectez-vous … »).
 */
export const ONE_LINE_MAX_LENGTH = 200;

/** Every run of blank that holds a line break (any Unicode one) becomes one space. */
export function oneLine(text: string): string {
  return text.replace(/\s*[\n\v\f\r\u0085\u2028\u2029]\s*/g, ' ').trim();
}

/** True for a field a JSON Schema bounds to one line's worth of text. */
export function isOneLineField(schema: { maxLength?: number } | undefined): boolean {
  return schema?.maxLength !== undefined && schema.maxLength <= ONE_LINE_MAX_LENGTH;
}

/**
 * RFC 6068: a `mailto:` link to one address, each part percent-encoded (a `?`, `&` or `%` in the
 * local part is the address's own character, never the start of `bcc=` or another header), or
 * undefined when the value is not one plausible address (no link is better than a wrong one).
 */
export function mailtoHref(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (at < 1 || !/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/.test(domain) || /[\s<>"]/.test(local)) {
    return undefined;
  }
  return `mailto:${encodeURIComponent(local)}@${domain}`;
}

/** RFC 3966: a `tel:` link of digits with an optional leading `+`, or undefined. */
export function telHref(phone: string): string | undefined {
  const dial = phone.replace(/[\s.\-()/]/g, '');
  return /^\+?\d{3,20}$/.test(dial) ? `tel:${dial}` : undefined;
}
