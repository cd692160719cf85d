import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/kernel/http/site/site-files.ts';
import type { SiteManifest } from '../../../src/kernel/schemas/site-manifest.ts';
import { SITE_DIR } from '../../../src/features/site/build.ts';
import { urlPathOf } from '../../../src/features/site/pages.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';
import { idsOf, internalLinks } from './html-scan.ts';

let site: TestSite;
let test: TestApp;
let manifest: SiteManifest;
const read = (file: string) => readFileSync(join(site.dir, file), 'utf8');

beforeAll(async () => {
  site = await buildTestSite();
  test = await buildTestApp({ siteDir: site.dir });
  manifest = readManifest(site.dir);
});
afterAll(async () => {
  await test?.close();
  site?.remove();
});

describe('leadgate build (docs/site.md)', () => {
  it('renders every content page to HTML and Markdown', () => {
    const sources = readdirSync(join(SITE_DIR, 'content'), { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.md'));
    const paths = manifest.pages.map((page) => page.path);
    for (const source of sources) {
      const path = urlPathOf(source.split('\\').join('/'));
      if (path === '/404') continue;
      expect(paths).toContain(path);
    }
    for (const page of [...manifest.pages, manifest.notFound]) {
      expect(existsSync(join(site.dir, page.html)), page.html).toBe(true);
      expect(existsSync(join(site.dir, page.markdown)), page.markdown).toBe(true);
    }
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/contact', '/contact/merci', '/developers']),
    );
  });

  it('precompresses every text file larger than 1 KB with brotli and gzip', () => {
    for (const file of [
      'index.html',
      'index.md',
      'llms.txt',
      'llms-full.txt',
      'sitemap.xml',
      'openapi.json',
    ]) {
      expect(existsSync(join(site.dir, `${file}.br`)), file).toBe(true);
      expect(existsSync(join(site.dir, `${file}.gz`)), file).toBe(true);
    }
  });
});

describe('built HTML: valid, accessible structure (quality bar, docs/quality.md)', () => {
  const pages = () => [...manifest.pages.map((page) => page.html), manifest.notFound.html];

  it('has lang="fr", one h1, a skip link to main, landmarks, and unique ids', () => {
    for (const file of pages()) {
      const html = read(file);
      expect(html, file).toMatch(/^<!doctype html>\n<html lang="fr">/);
      expect(html.match(/<h1[\s>]/g), file).toHaveLength(1);
      expect(html, file).toContain('<a class="skip-link" href="#contenu">');
      expect(html, file).toContain('<main id="contenu"');
      expect(html, file).toMatch(/<header[\s>][\s\S]*<nav [\s\S]*<\/header>[\s\S]*<footer[\s>]/);
      const ids = idsOf(html);
      expect(new Set(ids).size, file).toBe(ids.length);
    }
  });

  it('labels every visible control', () => {
    for (const file of pages()) {
      const html = read(file);
      const controls = [...html.matchAll(/<(input|select|textarea)\b[^>]*>/g)]
        .map((match) => match[0])
        .filter((tag) => !tag.includes('type="hidden"'));
      for (const tag of controls) {
        const id = /\sid="([^"]+)"/.exec(tag)?.[1];
        expect(id, `${file}: ${tag}`).toBeDefined();
        expect(html, `${file}: ${tag}`).toContain(`<label for="${id}">`);
      }
    }
  });

  it('has no inline script or style, so the strict CSP holds (docs/site.md)', () => {
    for (const file of pages()) {
      const html = read(file);
      // A JSON-LD block is data that browsers never run; any other script must be a file.
      expect(html, file).not.toMatch(
        /<script(?![^>]*\ssrc=)(?! type="application\/ld\+json")[^>]*>/,
      );
      expect(html, file).not.toMatch(/<style[\s>]|\sstyle="|\son[a-z]+="/);
    }
  });

  it('links only to URLs the app answers, and to anchors that exist', async () => {
    const checked = new Map<string, string>();
    for (const file of pages()) {
      for (const link of internalLinks(read(file))) {
        const [path = '/', fragment] = link.split('#');
        if (!checked.has(path)) {
          const response = await test.app.inject({ url: path });
          expect(response.statusCode, `${file} → ${link}`).toBe(200);
          checked.set(path, response.body);
        }
        if (fragment)
          expect(idsOf(checked.get(path) ?? ''), `${file} → ${link}`).toContain(fragment);
      }
    }
    expect(checked.size).toBeGreaterThan(10);
  });

  it('keeps the home page under 60 KB transferred (HTML, CSS, JS, icon, compressed)', async () => {
    const html = read('index.html');
    const assets = [...html.matchAll(/(?:href|src)="(\/(?:assets\/[^"]+|favicon\.svg))"/g)].map(
      (match) => match[1] as string,
    );
    let total = 0;
    for (const url of ['/', ...assets]) {
      const response = await test.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.statusCode, url).toBe(200);
      total += response.rawPayload.length;
    }
    expect(assets.length).toBeGreaterThanOrEqual(2);
    expect(total).toBeLessThan(60 * 1024);
  });
});
