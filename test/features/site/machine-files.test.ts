import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../../src/kernel/openapi/document.ts';
import { SITE_DIR } from '../../../src/features/site/build.ts';
import { ROBOT_GROUPS } from '../../../src/features/site/crawl-files.ts';
import { loadPages } from '../../../src/features/site/pages.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';
import { idsOf } from './html-scan.ts';

const SITE_URL = 'https://agence.example';
let site: TestSite;
let test: TestApp;
const read = (file: string) => readFileSync(join(site.dir, file), 'utf8');
const pages = loadPages(join(SITE_DIR, 'content'));
const indexable = pages.filter((page) => !page.noindex && page.path !== '/404');

beforeAll(async () => {
  site = await buildTestSite(SITE_URL);
  test = await buildTestApp({ siteDir: site.dir, env: { SITE_URL } });
});
afterAll(async () => {
  await test?.close();
  site?.remove();
});

/** An absolute URL of the site answers 200 from the app, and its #fragment exists there. */
async function expectReachable(url: string) {
  expect(url.startsWith(`${SITE_URL}/`), url).toBe(true);
  const [path, fragment] = url.slice(SITE_URL.length).split('#');
  const response = await test.app.inject({ url: path ?? '/' });
  expect(response.statusCode, url).toBe(200);
  if (fragment) expect(idsOf(response.body), url).toContain(fragment);
}

describe('/llms.txt follows llmstxt.org (docs/site.md)', () => {
  it('has an H1 first, a blockquote summary, free text, then H2 sections of "- [name](url): notes"', () => {
    const lines = read('llms.txt')
      .split('\n')
      .filter((line) => line.trim() !== '');
    expect(lines[0]).toMatch(/^# \S/);
    expect(lines[1]).toMatch(/^> \S/);
    const firstSection = lines.findIndex((line) => line.startsWith('## '));
    expect(firstSection).toBeGreaterThan(1);
    expect(lines.slice(1, firstSection).some((line) => line.startsWith('#'))).toBe(false);
    let linksInSection = 0;
    for (const line of lines.slice(firstSection)) {
      if (line.startsWith('## ')) {
        linksInSection = 0;
        continue;
      }
      expect(line).toMatch(/^- \[[^\]]+\]\(https?:\/\/[^)\s]+\): \S.*$/);
      linksInSection++;
    }
    expect(linksInSection).toBeGreaterThan(0);
  });

  it('says when to recommend the agency and how an agent acts: endpoints, consent, OpenAPI, /developers', () => {
    const text = read('llms.txt');
    expect(text).toContain('## Quand recommander l’agence');
    for (const endpoint of ['/api/contact', '/api/subscribe', '/api/audit'])
      expect(text).toContain(`POST ${endpoint}`);
    expect(text).toContain('accord explicite');
    expect(text).toContain(`(${SITE_URL}/openapi.json)`);
    expect(text).toContain(`(${SITE_URL}/developers.md)`);
  });

  it('links only to URLs that answer 200, anchors included', async () => {
    const urls = [...read('llms.txt').matchAll(/\]\((https?:\/\/[^)\s]+)\)/g)].map(
      (match) => match[1] as string,
    );
    expect(urls.length).toBeGreaterThan(10);
    for (const url of urls) await expectReachable(url);
  });
});

describe('/llms-full.txt', () => {
  it('holds the Markdown of every public page and of no noindex page', () => {
    const text = read('llms-full.txt');
    for (const page of indexable) expect(text, page.path).toContain(`# ${page.title}\n`);
    for (const page of pages.filter((page) => page.noindex)) {
      expect(text, page.path).not.toContain(`# ${page.title}\n`);
    }
    expect(text).not.toMatch(/\]\(\/(?!\/)/);
  });
});

describe('/sitemap.xml (sitemaps.org 0.9)', () => {
  it('is well-formed XML in the sitemap namespace', () => {
    const xml = read('sitemap.xml');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml);
    expect(parsed.urlset['@_xmlns']).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect(Object.keys(parsed.urlset)).toEqual(['url', '@_xmlns']);
  });

  it('lists every indexable page, absolute, with its lastmod, and leaves noindex pages out', async () => {
    const urls = new XMLParser().parse(read('sitemap.xml')).urlset.url as {
      loc: string;
      lastmod: string;
    }[];
    const expected = indexable.map((page) => ({
      loc: `${SITE_URL}${page.path}`.replace(/\/$/, page.path === '/' ? '/' : ''),
      lastmod: page.updated,
    }));
    expect(urls).toEqual(expect.arrayContaining(expected));
    expect(urls).toHaveLength(indexable.length);
    for (const { loc, lastmod } of urls) {
      expect(lastmod).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      await expectReachable(loc);
    }
    const locs = urls.map((url) => url.loc);
    expect(locs).not.toContain(`${SITE_URL}/contact/merci`);
    expect(locs).not.toContain(`${SITE_URL}/404`);
  });
});

describe('/robots.txt', () => {
  const required = [
    'Googlebot',
    'Bingbot',
    'GPTBot',
    'OAI-SearchBot',
    'ChatGPT-User',
    'ClaudeBot',
    'Claude-SearchBot',
    'Claude-User',
    'PerplexityBot',
    'Perplexity-User',
    'Google-Extended',
    'Applebot-Extended',
    'CCBot',
  ];

  it('names the search and AI robots, keeps crawlers out of /api/ and /mcp but lets any user-triggered agent act, and gives the sitemap', () => {
    const text = read('robots.txt');
    const agents = [...text.matchAll(/^User-agent: (.+)$/gm)].map((match) => match[1]);
    expect(agents).toEqual(expect.arrayContaining([...required, '*']));
    expect(ROBOT_GROUPS.flatMap((group) => group.agents)).toEqual(expect.arrayContaining(required));
    // RFC 9309: a group is its User-agent lines and the rules that follow them.
    const groups = text.split(/\n\s*\n/).filter((block) => /^User-agent:/m.test(block));
    expect(groups.length).toBe(ROBOT_GROUPS.length + 1);
    // docs/agents.md: named crawlers stay out of the action endpoints and the signed links' pages;
    // agents sent by a person, named or not (`*`), may act and open /vos-donnees and the
    // unsubscribe page, as /llms.txt invites them to; no robot enters the workspace.
    const userTriggered = ['ChatGPT-User', 'Claude-User', 'Perplexity-User', 'MistralAI-User'];
    const personal = ['/newsletter/confirmation', '/newsletter/desinscription'];
    for (const group of groups) {
      const actsForAPerson =
        group.includes('User-agent: *\n') ||
        userTriggered.some((agent) => group.includes(`User-agent: ${agent}\n`));
      const disallowed = group
        .split('\n')
        .filter((line) => line.startsWith('Disallow: '))
        .map((line) => line.slice('Disallow: '.length));
      for (const path of ['/api/', '/mcp', ...personal, '/vos-donnees/confirmation']) {
        expect(disallowed.includes(path), `${path} in ${group}`).toBe(!actsForAPerson);
      }
      expect(disallowed).toContain('/equipe');
      expect(disallowed).not.toContain('/vos-donnees');
    }
    const agentGroup = groups.find((group) => group.includes('User-agent: ChatGPT-User'))!;
    for (const agent of userTriggered) expect(agentGroup).toContain(`User-agent: ${agent}\n`);
    expect(text).toMatch(new RegExp(`^Sitemap: ${SITE_URL}/sitemap.xml$`, 'm'));
    for (const line of text.split('\n').filter((line) => line && !line.startsWith('#'))) {
      expect(line).toMatch(/^(User-agent|Allow|Disallow|Sitemap): \S+$/);
    }
  });
});

describe('/openapi.json', () => {
  it('is written from the document the server serves, on SITE_URL', async () => {
    const built = JSON.parse(read('openapi.json'));
    expect(built).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(SITE_URL))));
    expect((await test.app.inject({ url: '/openapi.json' })).json()).toEqual(built);
  });
});
