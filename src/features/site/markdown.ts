import MarkdownIt from 'markdown-it';

/** "Référencement local" → "referencement-local": stable anchors for headings (and /developers links). */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// Raw HTML stays off: content is Markdown only, so the pages' markup (and its validity) stays ours.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

// Every H2–H4 gets an id from its text, so sections can be linked from llms.txt and other pages.
markdown.core.ruler.push('heading_ids', (state) => {
  const seen = new Map<string, number>();
  state.tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const base = slugify(state.tokens[index + 1]?.content ?? '') || 'section';
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    token.attrSet('id', count ? `${base}-${count + 1}` : base);
  });
});

export class MarkdownError extends Error {}

/** Renders a page body to HTML; the page title is its only H1, so the body may not hold one. */
export function renderMarkdown(body: string, source: string): string {
  const tokens = markdown.parse(body, {});
  if (tokens.some((token) => token.type === 'heading_open' && token.tag === 'h1')) {
    throw new MarkdownError(`${source}: the body must start at H2; the title is the page's H1`);
  }
  return markdown.renderer.render(tokens, markdown.options, {});
}

/** Site-relative links (`](/contact)`, `]: /contact`) made absolute, for Markdown read outside the site. */
export function absoluteLinks(body: string, siteUrl: string): string {
  return body
    .replace(/\]\((\/(?!\/)[^)\s]*)/g, (_match, path: string) => `](${siteUrl}${path}`)
    .replace(
      /^(\s*\[[^\]]+\]:\s*)(\/(?!\/)\S*)/gm,
      (_match, label: string, path: string) => `${label}${siteUrl}${path}`,
    );
}
