/**
 * The picture of a page: site/assets/illustrations/<last segment of its path>.svg, written into the
 * page itself. Chromium renders an SVG `<img>` as a document of its own on the page's main thread:
 * the home page's seven cards cost it more blocking time than the same drawings inline
 * (docs/site.md, "Measured here"). Decorative (hidden from assistive technologies): the title or the
 * card heading beside it already says what it shows (docs/site.md, "Design").
 */
export type Illustrations = ReadonlyMap<string, string>;

export function illustrationOf(illustrations: Illustrations, path: string): string | undefined {
  return illustrations.get(path.slice(path.lastIndexOf('/') + 1));
}

function picture(svg: string, className: string): string {
  return svg.replace(
    /^<svg /,
    `<svg class="${className}" width="96" height="96" aria-hidden="true" `,
  );
}

/** Beside the summary of an illustrated page. */
export function pageIllustration(svg: string): string {
  return picture(svg, 'page-illustration');
}

const LIST = /<ul>\n((?:<li>.*<\/li>\n)+)<\/ul>/g;
const ITEM = /^<li><strong><a href="([^"]+)">(.+?)<\/a><\/strong>\s?:\s(.+)<\/li>$/;

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A Markdown list whose every item reads `**[Page](/path)** : what it is`, each page illustrated,
 * becomes cards (picture, heading link, text), like the home page's proof cards. The Markdown copy
 * keeps the plain list. The card headings sit one level under the heading before the list.
 */
export function linkCards(html: string, illustrations: Illustrations): string {
  return html.replace(LIST, (list, items: string, offset: number) => {
    const parsed = items
      .trimEnd()
      .split('\n')
      .map((item) => ITEM.exec(item));
    const cards = parsed.map((match) => {
      const svg = match && illustrationOf(illustrations, match[1]!);
      return match && svg ? { href: match[1]!, label: match[2]!, text: match[3]!, svg } : undefined;
    });
    if (cards.some((card) => card === undefined)) return list;
    const above = [...html.slice(0, offset).matchAll(/<h([1-5])\b/g)].at(-1)?.[1];
    const level = above ? Number(above) + 1 : 2;
    const rendered = cards.map(
      (card) =>
        `<li class="card">${picture(card!.svg, 'card-illustration')}<h${level}><a href="${card!.href}">${card!.label}</a></h${level}><p>${capitalized(card!.text)}</p></li>`,
    );
    return `<ul class="cards link-cards">\n${rendered.join('\n')}\n</ul>`;
  });
}
