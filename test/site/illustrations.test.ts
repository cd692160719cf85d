import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_DIR } from '../../site/build.ts';
import { linkCards } from '../../site/templates/illustrations.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';
import { attributesOf } from './html-scan.ts';

let site: TestSite;
let test: TestApp;
const page = async (url: string, accept = 'text/html') =>
  (await test.app.inject({ url, headers: { accept } })).body;

const ILLUSTRATED = [
  '/services/site-sur-mesure',
  '/services/fiche-etablissement-google',
  '/services/referencement-local',
  '/services/visibilite-moteurs-ia',
  '/secteurs/avocats',
  '/secteurs/boutiques',
  '/secteurs/btp',
];

const images = (html: string) =>
  [...html.matchAll(/<img\b[^>]*>/g)].map((match) => attributesOf(match[0]));

beforeAll(async () => {
  site = await buildTestSite();
  test = await buildTestApp({ siteDir: site.dir });
});
afterAll(async () => {
  await test?.close();
  site?.remove();
});

describe('illustrations of services and sectors (docs/site.md, "Design")', () => {
  it('shows each service and sector page its own decorative picture, cached for a year', async () => {
    const sources = new Set<string>();
    for (const path of ILLUSTRATED) {
      const [picture, ...others] = images(await page(path));
      expect(others, path).toEqual([]);
      expect(picture, path).toMatchObject({ alt: '', width: '96', height: '96' });
      expect(picture!.src).toMatch(/^\/assets\/illustrations\/[a-z-]+\.[0-9a-f]{10}\.svg$/);
      sources.add(picture!.src!);
      const file = await test.app.inject({ url: picture!.src! });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('image/svg+xml');
      expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect(sources.size).toBe(ILLUSTRATED.length);
  });

  it('lists the services on /services and the sectors on /secteurs as illustrated cards', async () => {
    for (const [index, section] of [
      ['/services', '/services/'],
      ['/secteurs', '/secteurs/'],
    ] as const) {
      const html = await page(index);
      const cards = [...html.matchAll(/<li class="card">([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
      const linked = cards.map((card) => /<h3><a href="([^"]+)">/.exec(card)?.[1]);
      expect(linked).toEqual(ILLUSTRATED.filter((path) => path.startsWith(section)));
      for (const card of cards) expect(images(card)[0]).toMatchObject({ alt: '' });
    }
  });

  it('keeps the Markdown copies free of pictures: a plain list of links', async () => {
    for (const path of ['/', '/services', '/secteurs', ...ILLUSTRATED]) {
      const markdown = await page(path, 'text/markdown');
      expect(markdown, path).not.toMatch(/<img|<svg|\.svg|card/);
    }
    expect(await page('/services', 'text/markdown')).toMatch(
      /^- \*\*\[Site sur mesure\]\(http:\/\/localhost:3000\/services\/site-sur-mesure\)\*\*/m,
    );
  });

  it('ships small hand-made SVG files with no text, script or style in them', () => {
    const dir = join(SITE_DIR, 'assets', 'illustrations');
    const files = readdirSync(dir);
    expect(files.length).toBeGreaterThanOrEqual(ILLUSTRATED.length);
    for (const file of files) {
      const svg = readFileSync(join(dir, file), 'utf8');
      expect(svg.length, file).toBeLessThanOrEqual(2048);
      expect(svg, file).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox=/);
      // The strict CSP forbids inline style; words in a picture would be unreadable and untranslated.
      expect(svg, file).not.toMatch(/<text|<script|<style|\sstyle=|\son\w+=|href="http/);
    }
  });
});

describe('linkCards', () => {
  const pictures = new Map([['a', '/a.svg']]);
  const list = '<ul>\n<li><strong><a href="/x/a">A</a></strong> : le texte.</li>\n</ul>';

  it('turns a list of illustrated page links into cards headed one level under the section', () => {
    expect(linkCards(`<h3 id="s">S</h3>\n${list}`, pictures)).toContain(
      '<h4><a href="/x/a">A</a></h4><p>Le texte.</p>',
    );
  });

  it('leaves a list alone when one of its links has no picture or no description', () => {
    const mixed = list.replace(
      '</ul>',
      '<li><strong><a href="/x/b">B</a></strong> : b.</li>\n</ul>',
    );
    expect(linkCards(mixed, pictures)).toBe(mixed);
    const bare = '<ul>\n<li><a href="/x/a">A</a></li>\n</ul>';
    expect(linkCards(bare, pictures)).toBe(bare);
  });
});
