import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_DIR } from '../../../src/features/site/build.ts';
import { linkCards } from '../../../src/features/site/templates/illustrations.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';
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

/** The drawings written into a page (the brand's logo aside), with the attributes of each opening tag. */
const drawings = (html: string) =>
  [...html.matchAll(/<svg class="[a-z]+-illustration"[^>]*>[\s\S]*?<\/svg>/g)].map((match) => ({
    attributes: attributesOf(/^<svg\b[^>]*>/.exec(match[0])![0]),
    markup: match[0],
  }));

beforeAll(async () => {
  site = await buildTestSite();
  test = await buildTestApp({ siteDir: site.dir });
});
afterAll(async () => {
  await test?.close();
  site?.remove();
});

describe('illustrations of services and sectors (docs/site.md, "Design")', () => {
  it('shows each service and sector page its own decorative drawing, written into the page', async () => {
    const seen = new Set<string>();
    for (const path of ILLUSTRATED) {
      const html = await page(path);
      // The logo and the case studies' screenshots are pictures (docs/site.md); a drawing is not.
      expect(
        images(html).filter((image) => /illustration/.test(image.src ?? '')),
        path,
      ).toEqual([]);
      const [drawing, ...others] = drawings(html);
      expect(others, path).toEqual([]);
      expect(drawing!.attributes, path).toMatchObject({
        class: 'page-illustration',
        'aria-hidden': 'true',
        width: '96',
        height: '96',
        viewBox: '0 0 96 96',
      });
      seen.add(drawing!.markup.replace(/^<svg\b[^>]*>/, ''));
    }
    expect(seen.size).toBe(ILLUSTRATED.length);
  });

  it('gives every id inside the drawings a name no page heading can take', async () => {
    for (const path of ['/', '/services', '/secteurs', ...ILLUSTRATED]) {
      const ids = [...(await page(path)).matchAll(/\sid="([^"]+)"/g)].map((match) => match[1]);
      expect(new Set(ids).size, path).toBe(ids.length);
    }
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
      for (const card of cards) {
        expect(drawings(card)[0]?.attributes).toMatchObject({
          class: 'card-illustration',
          'aria-hidden': 'true',
        });
      }
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
  const pictures = new Map([
    ['a', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 96 96"/>'],
  ]);
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
