import {
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_UNSUBSCRIBE_PATH,
} from '../src/schemas/newsletter-pages.ts';
import { WORKSPACE_PATH } from '../src/schemas/workspace-paths.ts';
import type { Page } from './pages.ts';
import { AGENCY } from './agency.ts';
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

/**
 * Robots named one by one (docs/site.md), grouped by what they do with the pages. Crawlers stay out
 * of /api/ and /mcp, which take only POSTs made with a person's consent; agents that fetch a page
 * because a person asked them to (user-triggered) may also reach them, since /llms.txt invites them
 * to act there (docs/agents.md).
 */
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
    actsForAPerson: false,
  },
  {
    why: 'Recherche des assistants IA (citations, réponses)',
    agents: ['OAI-SearchBot', 'Claude-SearchBot', 'PerplexityBot', 'DuckAssistBot'],
    actsForAPerson: false,
  },
  {
    why: 'Assistants IA agissant à la demande d’une personne : ils peuvent aussi envoyer ses demandes à /api/ et /mcp, avec son accord',
    agents: ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User'],
    actsForAPerson: true,
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
    actsForAPerson: false,
  },
];

/** The action endpoints: POST only, and only with the consent of the person concerned. */
const ACTION_PATHS = ['/api/', '/mcp'];

/**
 * The answers to a newsletter's signed links (docs/consent.md): meant for the person who got the
 * e-mail, never for a robot, not even one sent by a person.
 */
const PERSONAL_LINK_PATHS = [NEWSLETTER_CONFIRM_PATH, NEWSLETTER_UNSUBSCRIBE_PATH];

/** The agency's workspace (docs/workspace.md): staff only, closed to every robot. */
const STAFF_PATHS = [WORKSPACE_PATH];

function rules(actsForAPerson: boolean): string {
  const closed = [...PERSONAL_LINK_PATHS, ...STAFF_PATHS];
  const refused = actsForAPerson ? closed : [...ACTION_PATHS, ...closed];
  return ['Allow: /', ...refused.map((path) => `Disallow: ${path}`)].join('\n');
}

/** RFC 9309: the public site is open to everyone named; the action endpoints to agents sent by a person. */
export function robotsTxt(siteUrl: string): string {
  const groups = ROBOT_GROUPS.map(
    (group) =>
      `# ${group.why}\n${group.agents.map((agent) => `User-agent: ${agent}`).join('\n')}\n${rules(group.actsForAPerson)}`,
  );
  return `# ${AGENCY.name} : politique d’exploration de ${siteUrl}
# Le site public est ouvert aux moteurs de recherche et aux assistants IA, nommés ci-dessous.
# /api/ et /mcp ne prennent que des POST envoyés avec l’accord de la personne concernée : les robots d’exploration
# en restent exclus, les assistants qui agissent à la demande d’une personne peuvent y accéder
# (voir ${siteUrl}/developers et ${siteUrl}/llms.txt).

${groups.join('\n\n')}

# Tous les autres robots
User-agent: *
${rules(false)}

Sitemap: ${siteUrl}/sitemap.xml
`;
}
