import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/kernel/http/site/site-files.ts';
import type { SiteManifest } from '../../../src/kernel/schemas/site-manifest.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

const SITE_URL = 'http://localhost:3000';
let site: TestSite;
let test: TestApp;
let manifest: SiteManifest;

beforeAll(async () => {
  site = await buildTestSite(SITE_URL);
  test = await buildTestApp({ siteDir: site.dir });
  manifest = readManifest(site.dir);
});
afterAll(async () => {
  await test?.close();
  site?.remove();
});

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  test.app.inject({ method, url, headers });

describe('pages as HTML (docs/site.md)', () => {
  it('answers every page with HTML, its Markdown alternate in Link and in the head', async () => {
    for (const page of manifest.pages) {
      const response = await get(page.path);
      const alternate = `${SITE_URL}${page.markdownPath}`;
      expect(response.statusCode, page.path).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers.link).toBe(`<${alternate}>; rel="alternate"; type="text/markdown"`);
      expect(response.body).toContain(
        `<link rel="alternate" type="text/markdown" href="${alternate}">`,
      );
      expect(response.headers.vary).toBe('Accept, Accept-Encoding');
      // A page with a lead's form carries a fresh bot-trap token: no shared cache
      // (docs/api-decisions.md); /vos-donnees' form has none (docs/consent.md).
      const hasForm = response.body.includes('name="form_token"');
      expect(response.headers['cache-control'], page.path).toBe(
        hasForm ? 'private, no-cache' : 'public, max-age=300',
      );
    }
  });

  it('sends the security headers of docs/site.md on HTML: strict CSP, nosniff, referrer policy', async () => {
    const response = await get('/contact');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});

describe('pages as Markdown (docs/site.md)', () => {
  it('answers Accept: text/markdown on any page with its Markdown', async () => {
    for (const page of manifest.pages) {
      const response = await get(page.path, { accept: 'text/markdown' });
      expect(response.statusCode, page.path).toBe(200);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(response.headers.vary).toContain('Accept');
      expect(response.body).toMatch(/^# \S/);
      expect(response.body, page.path).not.toMatch(/\]\(\/(?!\/)/);
      expect(response.body).not.toContain('Aller au contenu');
      const tokens = Number(response.headers['x-markdown-tokens']);
      expect(tokens).toBe(Math.ceil(response.body.length / 4));
    }
  });

  it.each([
    ['text/markdown, text/html', 'text/markdown'],
    ['text/html;q=0.8, text/markdown;q=0.8', 'text/markdown'],
    ['text/html, text/markdown;q=0.5', 'text/html'],
    ['*/*', 'text/html'],
    ['text/html,application/xhtml+xml,*/*;q=0.8', 'text/html'],
  ])('Accept: %s → %s', async (accept, type) => {
    const response = await get('/services', { accept });
    expect(response.headers['content-type']).toBe(`${type}; charset=utf-8`);
  });

  it('serves the Markdown at its own URL too, pointing back to the page', async () => {
    for (const url of ['/index.md', '/contact.md', '/contact/merci.md', '/developers.md']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
      expect(response.headers.link).toMatch(/^<http:\/\/localhost:3000\/[^>]*>; rel="canonical"$/);
    }
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    for (const accept of ['text/html', 'text/markdown']) {
      const [head, full] = [
        await get('/contact', { accept }, 'HEAD'),
        await get('/contact', { accept }),
      ];
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      for (const name of ['content-type', 'etag', 'content-length', 'vary', 'link']) {
        expect(head.headers[name], `${accept} ${name}`).toBe(full.headers[name]);
      }
    }
  });
});

describe('caching and compression', () => {
  // A page with a form has a weak ETag instead (its token changes every second): bot-trap.test.ts.
  it('gives strong ETags and answers If-None-Match with 304', async () => {
    const first = await get('/mentions-legales');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get('/mentions-legales', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const markdown = await get('/mentions-legales', { accept: 'text/markdown' });
    expect(markdown.headers.etag).not.toBe(etag);
    expect((await get('/mentions-legales', { 'if-none-match': '"autre"' })).statusCode).toBe(200);
  });

  it('sends the precompressed brotli or gzip variant the client accepts', async () => {
    const plain = await get('/llms-full.txt');
    const br = await get('/llms-full.txt', { 'accept-encoding': 'gzip, deflate, br' });
    const gzip = await get('/llms-full.txt', { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers.etag).not.toBe(plain.headers.etag);
  });

  it('serves the machine-readable files and assets with their content types', async () => {
    const types: Record<string, string> = {
      '/llms.txt': 'text/plain; charset=utf-8',
      '/sitemap.xml': 'application/xml; charset=utf-8',
      '/robots.txt': 'text/plain; charset=utf-8',
      '/openapi.json': 'application/json; charset=utf-8',
      '/favicon.svg': 'image/svg+xml',
    };
    for (const [url, type] of Object.entries(types)) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe(type);
    }
    const assets = manifest.files.filter((file) => file.immutable);
    expect(assets.map((asset) => asset.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.css$/), expect.stringMatching(/\.js$/)]),
    );
    for (const asset of assets) {
      const response = await get(asset.path);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      // Stylesheet, script, and the pictures resized at build (the logo, case-study screenshots).
      expect(response.headers['content-type'], asset.path).toMatch(
        /^(text\/(css|javascript); charset=utf-8|image\/(svg\+xml|png|webp))$/,
      );
    }
  });
});

describe('unknown paths and trailing slashes', () => {
  it('answers an unknown page with the 404 page, as HTML or Markdown', async () => {
    const html = await get('/nulle-part');
    expect(html.statusCode).toBe(404);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('<h1>Page introuvable</h1>');
    expect(html.body).toContain('<meta name="robots" content="noindex">');
    const markdown = await get('/nulle-part', { accept: 'text/markdown' });
    expect(markdown.statusCode).toBe(404);
    expect(markdown.headers['content-type']).toBe('text/markdown; charset=utf-8');
    const head = await get('/nulle-part', {}, 'HEAD');
    expect(head.statusCode).toBe(404);
    expect(head.body).toBe('');
    expect((await get('/404')).statusCode).toBe(404);
  });

  it('keeps the JSON not_found of spec 7 under /api/', async () => {
    for (const url of ['/api/inconnu', '/api', '/api/contact/x']) {
      const response = await get(url, { accept: 'text/html' });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('application/json; charset=utf-8');
      expect(response.json().error.code, url).toBe('not_found');
    }
  });

  it('redirects "/services/" to "/services", keeping the query string', async () => {
    const response = await get('/services/?source=lettre');
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/services?source=lettre');
    expect((await get('/services?source=lettre')).statusCode).toBe(200);
  });
});

describe('over a real socket', () => {
  it('serves a compressed page that fetch reads back whole', async () => {
    const address = await test.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/developers`, { headers: { 'accept-encoding': 'br' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(await response.text()).toContain('<h1>Développeurs et agents IA</h1>');
  });
});

describe('what a build keeps for the server (docs/site.md)', () => {
  it.each(['/site-manifest.json', '/site-identity.json'])(
    '%s is read by the server and never served',
    async (path) => {
      const file = path.slice(1);
      expect(readFileSync(join(site.dir, file), 'utf8').length).toBeGreaterThan(0);
      expect((await get(path)).statusCode).toBe(404);
    },
  );
});
