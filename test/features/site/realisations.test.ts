import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/kernel/http/site/site-files.ts';
import { parsePage } from '../../../src/features/site/pages.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

/*
 * docs/site.md "Réalisations": case studies from Markdown, their screenshots resized at build, and
 * the proof each page shows matched to its sector or service.
 */

let site: TestSite;
const read = (file: string) => readFileSync(join(site.dir, file), 'utf8');
const aside = (file: string) => /<aside class="proof"[\s\S]*?<\/aside>/.exec(read(file))![0];
const images = (html: string) => [...html.matchAll(/<img [^>]*>/g)].map(([tag]) => tag);

beforeAll(async () => {
  site = await buildTestSite();
});
afterAll(() => site?.remove());

describe('« Réalisations »', () => {
  it('has an index and one page per case study, linked from the home page', () => {
    const paths = readManifest(site.dir).pages.map((page) => page.path);
    const cases = paths.filter((path) => path.startsWith('/realisations/'));
    expect(cases).toHaveLength(3);
    expect(paths).toContain('/realisations');
    const home = read('index.html');
    const index = read('realisations/index.html');
    for (const path of cases) {
      expect(home).toContain(`href="${path}"`);
      expect(index).toContain(`href="${path}"`);
    }
    expect(read('realisations.md')).toContain('Durand Rénovation');
  });

  it('shows on its page the client, the figure, the problem, what was done and the screenshots', () => {
    const page = read('realisations/durand-renovation/index.html');
    expect(page).toContain('×4');
    expect(page).toContain('Le point de départ');
    expect(page).toContain('Ce que nous avons fait');
    expect(page).toContain('href="/services/site-sur-mesure"');
    expect(page.match(/<figure class="case-screenshot/g)).toHaveLength(2);
    expect(read('realisations/durand-renovation.md')).toContain('## Ce que nous avons fait');
  });

  it('resizes screenshots into WebP widths no wider than the original, width and height set, lazy, with alt', async () => {
    for (const file of [
      'index.html',
      'realisations/index.html',
      'realisations/durand-renovation/index.html',
    ]) {
      for (const tag of images(read(file)).filter((img) => img.includes('srcset'))) {
        expect(tag, file).toMatch(/ width="\d+" height="\d+"/);
        expect(tag, file).toMatch(/ alt="[^"]{20,}"/);
        expect(tag, file).toContain('loading="lazy"');
        expect(tag, file).toMatch(/ sizes="[^"]+"/);
      }
    }
    const resized = readdirSync(join(site.dir, 'assets/images'));
    expect(resized.length).toBeGreaterThanOrEqual(6);
    for (const file of resized) {
      const { format, width } = await sharp(join(site.dir, 'assets/images', file)).metadata();
      expect(format).toBe('webp');
      expect(width).toBe(Number(/-(\d+)\.[0-9a-f]+\.webp$/.exec(file)![1]));
      expect(width).toBeLessThanOrEqual(1200);
    }
  });

  it('refuses a screenshot without alt text, naming the file, the line and the field', () => {
    const raw = `---
title: "Un client"
description: "Un client"
updated: "2026-11-26"
case:
  client: Un client
  sector: btp
  services: [site-sur-mesure]
  problem: Avant
  done: Après
  figure: { value: "×2", label: demandes }
  screenshots:
    - file: capture.png
---
`;
    expect(() => parsePage('realisations/un-client.md', raw)).toThrow(
      'realisations/un-client.md, ligne 13 : case.screenshots[0] : le champ « alt » manque',
    );
  });
});

describe('proof matched to the page (no lawyer on the builders’ page)', () => {
  it('a sector page quotes a client of its sector and shows its case study, never another sector’s', () => {
    const btp = aside('secteurs/btp/index.html');
    expect(btp).toContain('Durand Rénovation');
    expect(btp).not.toMatch(/Ferrand|Avocat|Vélo/);
    const lawyers = aside('secteurs/avocats/index.html');
    expect(lawyers).toContain('Cabinet Ferrand Avocats');
    expect(lawyers).not.toMatch(/Durand|Vélo/);
    const shops = aside('secteurs/boutiques/index.html');
    expect(shops).toContain('Atelier Vélo Croix-Rousse');
    expect(shops).not.toMatch(/Ferrand|Durand/);
  });

  it('a service page shows a client that service was done for', () => {
    expect(aside('services/fiche-etablissement-google/index.html')).toContain(
      'Atelier Vélo Croix-Rousse',
    );
  });

  it('no one client is quoted in the proof box of every page', () => {
    // The privacy pages carry no proof box: no sales on a person's data (docs/consent.md).
    const quoted = readManifest(site.dir)
      .pages.filter((page) => !page.path.startsWith('/realisations/'))
      .filter((page) => read(page.html).includes('<aside class="proof"'))
      .map((page) => /<p class="reference"><strong>([^<]+)<\/strong>/.exec(aside(page.html))?.[1]);
    expect(new Set(quoted.filter(Boolean)).size).toBeGreaterThan(1);
  });

  it('links the clients’ reviews', () => {
    expect(aside('index.html')).toMatch(
      /<a href="https:\/\/www\.google\.com\/maps\/[^"]+">Lire les avis/,
    );
  });
});
