import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../../kernel/openapi/document.ts';
import { questionnaireDocument, questionnairePath } from '../../kernel/schemas/questionnaires.ts';
import { MANIFEST_FILE, type SiteManifest } from '../../kernel/schemas/site-manifest.ts';
import { apiEndpoints } from '../../kernel/schemas/api-endpoints.ts';
import { endpointCount, LEAD_KINDS } from '../../kernel/schemas/lead-kinds.ts';
import { ANSWERED_KINDS } from '../inbox/index.ts';
import { IDENTITY } from './agency.ts';
import { buildAssets } from './assets-pipeline.ts';
import { emailTypoScript } from './email-typo-script.ts';
import { identityAssets } from './proof-assets.ts';
import {
  caseCards,
  caseListMarkdown,
  caseScreenshots,
  caseStudyMarkdown,
  type ShownCase,
} from './templates/case-study.ts';
import { robotsTxt, sitemapXml } from './crawl-files.ts';
import { developersReference } from './developers-reference.ts';
import { checkIdentity, type IdentityPolicy } from './identity-check.ts';
import { SHIPPED_CONTENT_DIR } from './sample-content.ts';
import { legalNoticeMarkdown } from './legal-notice.ts';
import {
  DEFAULT_PRIVACY,
  privacyNoticeMarkdown,
  privacySettingsKey,
  type PrivacySettings,
} from './privacy-notice.ts';
import { llmsFullTxt, llmsTxt } from './llms-files.ts';
import { renderMarkdown } from './markdown.ts';
import { typeset } from './typeset.ts';
import { writeSite } from './output.ts';
import { BUILT_IDENTITY_FILE } from './served-identity.ts';
import { homeSectionsMarkdown } from './home-markdown.ts';
import { newsletterPageFiles, privacyPageFiles } from './link-pages.ts';
import { pageMarkdown } from './page-markdown.ts';
import { loadPages, type Page } from './pages.ts';
import { checkServicePrices, PRICES_PATH, withPrices } from './prices.ts';
import { FOOTER_LINKS, PRIMARY_NAV } from './site-info.ts';
import { pageForms } from './templates/forms.ts';
import { linkCards } from './templates/illustrations.ts';
import { layout, markdownPath, type LayoutContext } from './templates/layout.ts';
import { updatedLine } from './templates/updated-line.ts';

/** The site's content, assets and identity file: data only, the code that builds them is here. */
export const SITE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../site');

export interface BuildOptions {
  siteUrl: string;
  outDir: string;
  /** Defaults to site/content (CONTENT_DIR, docs/site.md). */
  contentDir?: string;
  /** Defaults to no production refusal: tests and development builds only get warnings. */
  identity?: IdentityPolicy;
  /** What /politique-de-confidentialite states about this deployment (docs/consent.md). */
  privacy?: PrivacySettings;
}

export interface BuildResult {
  pages: number;
  files: number;
  milliseconds: number;
  /** One line per sample value left in the identity file (site/agency.yaml). */
  warnings: string[];
}

/** `/` → index.html, `/contact` → contact/index.html, the 404 page → 404.html (what nginx expects too). */
function htmlFile(path: string): string {
  if (path === '/404') return '404.html';
  return path === '/' ? 'index.html' : `${path.slice(1)}/index.html`;
}

const DEVELOPERS_FALLBACK: Page = {
  source: '(généré)',
  path: '/developers',
  title: 'Développeurs et agents IA',
  description: `L’API publique de l’agence : ${endpointCount(apiEndpoints())} JSON sans clé, leurs champs, leurs limites et leurs codes d’erreur.`,
  updated: new Date().toISOString().slice(0, 10),
  noindex: false,
  newsletter: false,
  questions: [],
  body: '',
};

/** "site-sur-mesure" → "Site sur mesure": the service pages' short titles, by the end of their path. */
function serviceTitles(pages: Page[]): Map<string, string> {
  return new Map(
    pages
      .filter((page) => page.path.startsWith('/services/'))
      .map((page) => [page.path.slice('/services/'.length), page.title.split(/\s:\s/)[0]!]),
  );
}

/** The « Réalisations » index: the case studies below its text. */
const CASES_INDEX = '/realisations';

/**
 * /developers = its Markdown content (if written), then the API reference generated from
 * src/kernel/schemas.
 */
function withGeneratedParts(content: Page[], siteUrl: string, privacy: PrivacySettings): Page[] {
  const pages = content.some((page) => page.path === '/developers')
    ? content
    : [...content, DEVELOPERS_FALLBACK];
  return pages.map((page) => {
    if (page.path === '/404') return { ...page, noindex: true };
    if (page.caseStudy) {
      const facts = caseStudyMarkdown(page.caseStudy, serviceTitles(content));
      return { ...page, body: `${facts}\n\n${page.body}`.trim() };
    }
    if (page.path === '/politique-de-confidentialite') {
      return { ...page, body: `${privacyNoticeMarkdown(privacy)}\n\n${page.body}` };
    }
    if (page.path === '/mentions-legales') {
      return { ...page, body: `${legalNoticeMarkdown()}\n\n${page.body}` };
    }
    if (page.path === '/developers') {
      // The written page may end with its own "## Référence" introduction: the reference goes under it.
      const withHeading = !/^## Référence\s*$/m.test(page.body);
      const reference = developersReference(siteUrl, { withHeading });
      return { ...page, body: `${page.body}\n\n${reference}`.trim() };
    }
    return page;
  });
}

/**
 * Each page with the prices it states (src/features/site/prices.ts), once every service page has
 * its price.
 */
function withPriceSections(pages: Page[]): Page[] {
  checkServicePrices(pages);
  const pricesPage = pages.some((page) => page.path === PRICES_PATH);
  return pages.map((page) => withPrices(page, pricesPage));
}

/** The Markdown copy's body: the home page's cards and contact card, the index's case list, as text. */
function markdownBody(page: Page, cases: readonly ShownCase[]): string {
  if (page.path === '/') return `${page.body}\n\n${homeSectionsMarkdown(cases)}`;
  if (page.path === CASES_INDEX) return `${page.body}\n\n${caseListMarkdown(cases)}`;
  return page.body;
}

function layoutContext(
  pages: Page[],
  siteUrl: string,
  assets: Pick<
    LayoutContext,
    'stylesheet' | 'script' | 'illustrations' | 'logo' | 'favicon' | 'themeColor' | 'proof'
  >,
): LayoutContext {
  const exists = (path: string) => pages.some((page) => page.path === path);
  const titled = (page: Page) => ({
    path: page.path,
    label: page.title.split(' : ')[0] ?? page.title,
  });
  return {
    siteUrl,
    ...assets,
    primaryNav: PRIMARY_NAV.filter((link) => exists(link.path)),
    footer: [
      {
        title: 'Services',
        links: pages.filter((page) => page.path.startsWith('/services/')).map(titled),
      },
      { title: 'Secteurs', links: pages.filter((page) => page.sector).map(titled) },
      {
        title: 'L’agence',
        links: [...PRIMARY_NAV.slice(2), ...FOOTER_LINKS].filter((link) => exists(link.path)),
      },
    ].filter((group) => group.links.length),
    year: new Date().getFullYear(),
  };
}

/** Each sector page's questionnaire as JSON, beside the page (/secteurs/btp.json). */
function questionnaireFiles(pages: Page[], siteUrl: string): Record<string, string> {
  return Object.fromEntries(
    pages.flatMap(({ sector }) =>
      sector
        ? [
            [
              questionnairePath(sector).slice(1),
              `${JSON.stringify(questionnaireDocument(sector, siteUrl), null, 2)}\n`,
            ],
          ]
        : [],
    ),
  );
}

/** Pre-renders site/content to outDir: HTML + Markdown per page and the machine-readable files (docs/site.md). */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  const { siteUrl } = options;
  const privacy = options.privacy ?? DEFAULT_PRIVACY;
  const contentDir = options.contentDir ?? SHIPPED_CONTENT_DIR;
  const warnings = checkIdentity(
    options.identity ?? { production: false, allowSamples: false },
    undefined,
    contentDir,
  );
  const pages = withPriceSections(withGeneratedParts(loadPages(contentDir), siteUrl, privacy));
  // The forms' suggestion is bundled by esbuild's own process while the pictures are made.
  const [emailTypo, identity] = await Promise.all([
    emailTypoScript(),
    identityAssets(IDENTITY, pages, contentDir),
  ]);
  const assets = buildAssets(join(SITE_DIR, 'assets'), IDENTITY.agency.brandColor, emailTypo);
  const context = layoutContext(pages, siteUrl, { ...assets, ...identity });
  const files = new Map<string, string | Buffer>([...assets.files, ...identity.files]);
  const cases = identity.proof.cases;
  const manifest: SiteManifest = {
    siteUrl,
    settings: privacySettingsKey(privacy),
    contentDir,
    builtAt: new Date().toISOString(),
    pages: [],
    notFound: { html: htmlFile('/404'), markdown: '404.md' },
    files: [...files.keys()].map((file) => ({
      path: `/${file}`,
      file,
      immutable: file.startsWith('assets/'),
    })),
  };

  const rendered = pages.map((page) => {
    const forms = pageForms(page);
    const body = linkCards(renderMarkdown(page.body, page.source), assets.illustrations);
    // A case study's screenshots under its text; the index's cards under its own (docs/site.md, "Réalisations").
    const shown = cases.find((item) => item.path === page.path);
    const extra =
      page.path === CASES_INDEX && cases.length ? caseCards(cases, 2) : caseScreenshots(shown);
    // docs/emails.md, "The answer promised": the thank-you page of a kind that promises an answer
    // has a slot the site's script fills with the time the API answered (?reponse=).
    const promise = LEAD_KINDS.some(
      (kind) => kind.thankYouPath === page.path && ANSWERED_KINDS.includes(kind.kind),
    );
    const slot = promise ? '<p class="answer-by" data-answer-by hidden></p>\n' : '';
    const content = `${slot}${body}\n${extra}\n${forms}\n${updatedLine(page.updated)}`;
    const markdown = pageMarkdown({ ...page, body: markdownBody(page, cases) }, siteUrl);
    // The whole page, templates and forms included, reads in French typography (docs/site.md, "Design").
    files.set(
      htmlFile(page.path),
      typeset(layout(context, page, content, forms !== '' || promise)),
    );
    files.set(markdownPath(page.path).slice(1), markdown);
    if (page.path !== '/404') {
      manifest.pages.push({
        path: page.path,
        html: htmlFile(page.path),
        markdown: markdownPath(page.path).slice(1),
        markdownPath: markdownPath(page.path),
      });
    }
    return { page, markdown };
  });

  // The answers to the signed links, written beside the pages and listed by state in the manifest.
  const listed = <S extends string>(pages: Record<S, { file: string; html: string }>) => {
    const byState: Partial<Record<S, string>> = {};
    for (const [state, { file, html }] of Object.entries(pages) as [S, (typeof pages)[S]][]) {
      files.set(file, html);
      byState[state] = file;
    }
    return byState;
  };
  const today = manifest.builtAt.slice(0, 10);
  manifest.newsletterPages = listed(newsletterPageFiles(context, today));
  manifest.privacyPages = listed(privacyPageFiles(context, today));

  const machineFiles: Record<string, string> = {
    'llms.txt': llmsTxt(pages, siteUrl),
    'llms-full.txt': llmsFullTxt(rendered, siteUrl),
    'sitemap.xml': sitemapXml(pages, siteUrl),
    'robots.txt': robotsTxt(siteUrl),
    'openapi.json': `${JSON.stringify(buildOpenApiDocument(siteUrl), null, 2)}\n`,
    ...questionnaireFiles(pages, siteUrl),
  };
  for (const [file, content] of Object.entries(machineFiles)) {
    files.set(file, content);
    manifest.files.push({ path: `/${file}`, file, immutable: false });
  }
  files.set(MANIFEST_FILE, `${JSON.stringify(manifest, null, 2)}\n`);
  // Not a public file: the server takes from it the identity its e-mails and workspace speak with.
  files.set(BUILT_IDENTITY_FILE, `${JSON.stringify(IDENTITY.agency, null, 2)}\n`);

  const written = await writeSite(options.outDir, files);
  return {
    pages: pages.length,
    files: written,
    milliseconds: Math.round(performance.now() - started),
    warnings,
  };
}
