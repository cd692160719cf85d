import type { Page } from './pages.ts';
import { SITE } from './site-info.ts';
import { canonicalUrl } from './templates/layout.ts';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** sitemaps.org 0.9: every indexable page, absolute on SITE_URL, dated by its front matter. */
export function sitemapXml(pages: Page[], siteUrl: string): string {
  const urls = pages
    .filter((page) => !page.noindex)
    .map(
      (page) =>
        `  <url>\n    <loc>${escapeXml(canonicalUrl(siteUrl, page.path))}</loc>\n    <lastmod>${page.updated}</lastmod>\n  </url>`,
    );
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join('\n')}
</urlset>
`;
}

/** Robots named one by one (issue 3), grouped by what they do with the pages. */
export const ROBOT_GROUPS = [
  {
    why: 'Moteurs de recherche',
    agents: [
      'Googlebot',
      'Bingbot',
      'Applebot',
      'DuckDuckBot',
      'Qwantbot',
      'YandexBot',
      'Baiduspider',
    ],
  },
  {
    why: 'Recherche et navigation des assistants IA (citations, réponses, visites pour un utilisateur)',
    agents: [
      'OAI-SearchBot',
      'ChatGPT-User',
      'Claude-SearchBot',
      'Claude-User',
      'PerplexityBot',
      'Perplexity-User',
      'MistralAI-User',
      'DuckAssistBot',
    ],
  },
  {
    why: 'Entraînement des modèles d’IA : bienvenu, une agence de visibilité IA veut être connue des modèles',
    agents: [
      'GPTBot',
      'ClaudeBot',
      'Google-Extended',
      'Applebot-Extended',
      'CCBot',
      'meta-externalagent',
      'Amazonbot',
      'Bytespider',
    ],
  },
];

/** RFC 9309: the public site is open to everyone named; /api/ takes only POSTs made with consent. */
export function robotsTxt(siteUrl: string): string {
  const groups = ROBOT_GROUPS.map(
    (group) =>
      `# ${group.why}\n${group.agents.map((agent) => `User-agent: ${agent}`).join('\n')}\nAllow: /\nDisallow: /api/`,
  );
  return `# ${SITE.name} : politique d’exploration de ${siteUrl}
# Le site public est ouvert aux moteurs de recherche et aux assistants IA, nommés ci-dessous.
# /api/ est exclu : ses points d’accès ne prennent que des POST envoyés avec l’accord de la personne concernée
# (voir ${siteUrl}/developers et ${siteUrl}/llms.txt).

${groups.join('\n\n')}

# Tous les autres robots
User-agent: *
Allow: /
Disallow: /api/

Sitemap: ${siteUrl}/sitemap.xml
`;
}
