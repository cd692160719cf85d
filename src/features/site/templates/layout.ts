import type { Page } from '../pages.ts';
import { AGENCY, postalAddressLine } from '../agency.ts';
import { PRIMARY_CTA, type NavLink } from '../site-info.ts';
import { escapeHtml } from './html.ts';
import { ownFormCta } from './forms.ts';
import { illustrationOf, type Illustrations } from './illustrations.ts';
import { hero, proofAside, proofSections, type CallToAction, type ProofContext } from './proof.ts';
import { structuredData } from './structured-data.ts';

export interface FooterGroup {
  title: string;
  links: NavLink[];
}

/** What every page shares, resolved once per build. */
export interface LayoutContext {
  siteUrl: string;
  stylesheet: string;
  script: string;
  illustrations: Illustrations;
  /** The agency's logo (site/agency.yaml), resized: shown 32 px high beside the name. */
  logo: { src: string; width: number; height: number };
  /** The favicon: the logo when it is an SVG, else its PNG. */
  favicon: { href: string; type: string };
  /** The brand colour (site/agency.yaml): the browser's theme colour. */
  themeColor: string;
  proof: ProofContext;
  primaryNav: NavLink[];
  footer: FooterGroup[];
  year: number;
}

export function canonicalUrl(siteUrl: string, path: string): string {
  return `${siteUrl}${path === '/' ? '/' : path}`;
}

/** `/` → `/index.md`, `/contact` → `/contact.md`: where each page's Markdown lives. */
export function markdownPath(path: string): string {
  return path === '/' ? '/index.md' : `${path}.md`;
}

function isCurrent(link: NavLink, page: Page): boolean {
  return page.path === link.path || page.path.startsWith(`${link.path}/`);
}

function navigation(context: LayoutContext, page: Page): string {
  const items = context.primaryNav
    .map((link) => {
      const current = page.path === link.path ? ' aria-current="page"' : '';
      const section = !current && isCurrent(link, page) ? ' class="in-section"' : '';
      // Contact is the menu's button; the diagnostic has the call to action under every title.
      const role =
        link.path === '/contact'
          ? ' class="nav-button"'
          : link.wideOnly
            ? ' class="nav-wide-only"'
            : '';
      return `<li${role}><a href="${escapeHtml(link.path)}"${current}${section}>${escapeHtml(link.label)}</a></li>`;
    })
    .join('');
  return `<nav class="site-nav" aria-label="Navigation principale"><ul>${items}</ul></nav>`;
}

/** Who to reach, from site/agency.yaml: the first proof that the agency is real. */
function contactCard(): string {
  const { legal, contact } = AGENCY;
  return `<div class="footer-contact">
<h2>${escapeHtml(AGENCY.name)}</h2>
<address>${escapeHtml(postalAddressLine(legal.address))}<br>
<a href="tel:${escapeHtml(contact.phone)}">${escapeHtml(contact.phoneDisplay)}</a><br>
<a href="mailto:${escapeHtml(contact.email)}">${escapeHtml(contact.email)}</a></address>
<p>${escapeHtml(contact.hours)}</p>
</div>`;
}

function footer(context: LayoutContext): string {
  const groups = context.footer
    .map(
      (group) => `<div>
<h2>${escapeHtml(group.title)}</h2>
<ul>${group.links.map((link) => `<li><a href="${escapeHtml(link.path)}">${escapeHtml(link.label)}</a></li>`).join('')}</ul>
</div>`,
    )
    .join('\n');
  return `<footer class="site-footer">
<div class="wrap footer-groups">
${contactCard()}
${groups}
</div>
<p class="wrap fine-print">© ${context.year} ${escapeHtml(AGENCY.legal.companyName)}, ${escapeHtml(AGENCY.tagline.toLowerCase())}.</p>
</footer>`;
}

/**
 * The call to action under the title: a page with its own form leads down to it (the form is the
 * page's action, docs/site.md, "Forms within reach"); the answer to a signed link, none: the person
 * came to confirm, unsubscribe or have their data erased, not to be sold to (docs/consent.md); any
 * other page to the free diagnostic.
 */
export function callToAction(page: Page): CallToAction | undefined {
  if (page.form) return ownFormCta(page.form);
  if (page.unlisted) return undefined;
  return page.path === PRIMARY_CTA.path ? undefined : PRIMARY_CTA;
}

/** A whole HTML page: valid HTML5, one h1 (the title), landmarks, skip link, no inline script. */
export function layout(
  context: LayoutContext,
  page: Page,
  content: string,
  hasForm: boolean,
): string {
  const url = canonicalUrl(context.siteUrl, page.path);
  const markdownUrl = `${context.siteUrl}${markdownPath(page.path)}`;
  // The 404 page answers at every unknown URL: it has no address of its own to point to.
  const addressable = page.path !== '/404' && !page.unlisted;
  const title =
    page.path === '/' ? `${AGENCY.name} · ${page.title}` : `${page.title} · ${AGENCY.name}`;
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<meta name="description" content="${escapeHtml(page.description)}">
${page.noindex ? '<meta name="robots" content="noindex">\n' : ''}${addressable ? `<link rel="canonical" href="${escapeHtml(url)}">\n<link rel="alternate" type="text/markdown" href="${escapeHtml(markdownUrl)}">\n` : ''}<link rel="icon" href="${escapeHtml(context.favicon.href)}" type="${context.favicon.type}">
<link rel="stylesheet" href="${escapeHtml(context.stylesheet)}">
${hasForm ? `<script src="${escapeHtml(context.script)}" defer></script>\n` : ''}<meta name="theme-color" content="${escapeHtml(context.themeColor)}">
<meta property="og:type" content="website">
<meta property="og:locale" content="fr_FR">
<meta property="og:site_name" content="${escapeHtml(AGENCY.name)}">
<meta property="og:title" content="${escapeHtml(page.title)}">
<meta property="og:description" content="${escapeHtml(page.description)}">
${addressable ? `<meta property="og:url" content="${escapeHtml(url)}">\n` : ''}${structuredData(page, context.siteUrl)}</head>
<body>
<a class="skip-link" href="#contenu">Aller au contenu</a>
<header class="site-header">
<div class="wrap header-bar">
<a class="brand" href="/"${page.path === '/' ? ' aria-current="page"' : ''}><img src="${escapeHtml(context.logo.src)}" width="${context.logo.width}" height="${context.logo.height}" alt=""><span>${escapeHtml(AGENCY.name)}<small>${escapeHtml(AGENCY.tagline)}</small></span></a>
${navigation(context, page)}
</div>
</header>
<main id="contenu" class="wrap page">
<article>
<h1>${escapeHtml(page.title)}</h1>
${hero(page, callToAction(page), illustrationOf(context.illustrations, page.path))}
${content}
${proofSections(page, context.proof)}
</article>
${proofAside(page, context.proof)}
</main>
${footer(context)}
</body>
</html>
`;
}
