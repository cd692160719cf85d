/*
 * A few regular expressions over the HTML our own templates write (not a general HTML parser):
 * enough to find forms, controls, links and ids in the built pages.
 */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

export function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_match, name: string) => ENTITIES[name] ?? '');
}

export function attributesOf(tag: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const match of tag.matchAll(/\s([a-z][\w-]*)(?:="([^"]*)")?/g)) {
    result[match[1] as string] = unescapeHtml(match[2] ?? '');
  }
  return result;
}

export interface ScannedForm {
  action: string;
  controls: (Record<string, string> & { tag: string })[];
  html: string;
}

export function formsOf(html: string): ScannedForm[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((match) => ({
    action: attributesOf(match[1] as string).action ?? '',
    html: match[2] as string,
    controls: [...(match[2] as string).matchAll(/<(input|textarea|select)\b([^>]*)>/g)].map(
      (control) => ({ tag: control[1] as string, ...attributesOf(control[2] as string) }),
    ),
  }));
}

export function idsOf(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((match) => unescapeHtml(match[1] as string));
}

/** Site-relative links (href="/…") of a page, with their fragment if any. */
export function internalLinks(html: string): string[] {
  return [...html.matchAll(/\shref="(\/[^"]*)"/g)].map((match) => unescapeHtml(match[1] as string));
}
