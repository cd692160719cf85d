import {
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_UNSUBSCRIBE_PATH,
} from '../../kernel/schemas/newsletter-pages.ts';
import { PRIVACY_CONFIRM_PATH } from '../../kernel/schemas/privacy-pages.ts';
import { WORKSPACE_PATH } from '../../kernel/schemas/workspace-paths.ts';
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
 * because a person asked them to (user-triggered), named here or not, may also reach them, since
 * /llms.txt invites them to act there (docs/agents.md).
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
 * The answers to a signed link (docs/consent.md): a newsletter's confirmation and unsubscribe
 * pages, a privacy request's confirmation. Nothing for a crawler to index (noindex); an agent sent
 * by the person may open them (GET only shows a button; the unsubscribe page without a link offers
 * the request of /vos-donnees).
 */
const PERSONAL_LINK_PATHS = [
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_UNSUBSCRIBE_PATH,
  PRIVACY_CONFIRM_PATH,
];

/** The agency's workspace (docs/workspace-security.md): staff only, closed to every robot. */
const STAFF_PATHS = [WORKSPACE_PATH];

/**
 * A crawler stays out of the action endpoints and the link pages; an agent acting for a person may
 * reach all /llms.txt invites it to (docs/agents.md), only the workspace stays closed.
 */
function rules(crawler: boolean): string {
  const refused = crawler ? [...ACTION_PATHS, ...PERSONAL_LINK_PATHS, ...STAFF_PATHS] : STAFF_PATHS;
  return ['Allow: /', ...refused.map((path) => `Disallow: ${path}`)].join('\n');
}

/** RFC 9309: the public site is open to everyone named; the action endpoints to agents sent by a person. */
export function robotsTxt(siteUrl: string): string {
  const groups = ROBOT_GROUPS.map(
    (group) =>
      `# ${group.why}\n${group.agents.map((agent) => `User-agent: ${agent}`).join('\n')}\n${rules(!group.actsForAPerson)}`,
  );
  // The `*` group is any agent not named: it may be one acting for a person, whom /llms.txt invites
  // to act (docs/agents.md). The endpoints take only POSTs and the link pages do nothing on a GET,
  // so an unnamed crawler finds nothing there to harm or index.
  return `# ${AGENCY.name} : politique d’exploration de ${siteUrl}
# Le site public est ouvert aux moteurs de recherche et aux assistants IA, nommés ci-dessous.
# /api/ et /mcp ne prennent que des POST envoyés avec l’accord de la personne concernée : les robots d’exploration
# nommés en restent exclus, comme des pages ouvertes par un lien personnel ; tout assistant qui agit à la
# demande d’une personne peut y accéder (voir ${siteUrl}/developers et ${siteUrl}/llms.txt).

${groups.join('\n\n')}

# Tous les autres agents, dont les assistants qui agissent à la demande d’une personne
User-agent: *
${rules(false)}

Sitemap: ${siteUrl}/sitemap.xml
`;
}
