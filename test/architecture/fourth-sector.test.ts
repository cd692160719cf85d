import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toolOf } from '../../src/mcp/lead-tools.ts';
import { serverCard } from '../../src/mcp/server-card.ts';
import { buildOpenApiDocument } from '../../src/kernel/openapi/document.ts';
import { auditRequestSchema } from '../../src/kernel/schemas/audit-request.ts';
import { auditKind, LEAD_KINDS } from '../../src/kernel/schemas/lead-kinds.ts';
import {
  SECTOR_DESCRIPTORS,
  type SectorDescriptor,
} from '../../src/kernel/schemas/sector-descriptors.ts';
import { AGENCY } from '../../src/features/site/agency.ts';
import { SITE_DIR } from '../../src/features/site/build.ts';
import { developersReference } from '../../src/features/site/developers-reference.ts';
import { llmsTxt } from '../../src/features/site/llms-files.ts';
import { renderMarkdown } from '../../src/features/site/markdown.ts';
import { pageMarkdown } from '../../src/features/site/page-markdown.ts';
import { ContentError, loadPages } from '../../src/features/site/pages.ts';

/*
 * docs/architecture.md, « How to add a sector »: a sector is one descriptor
 * (src/kernel/schemas/sector-descriptors.ts) and its page. This fixture adds a fourth one and checks that
 * every place that lists or counts the sectors names it: the site's pages (HTML and Markdown),
 * llms.txt, the audit's schema and description in /openapi.json, /developers, the MCP tool and the
 * server card. The rule is generic: a sentence that names every sector of today must name the new
 * one too, so a list written by hand anywhere fails here.
 */
const RESTAURANTS: SectorDescriptor = {
  sector: 'restaurants',
  label: 'Restaurants et cafés',
  name: 'restaurants',
  forWhom: 'remplir la salle en semaine et être bien noté',
  auditChecks: 'carte en ligne, horaires, réservation, avis et photos de salle',
  questions: [{ question: 'Combien de couverts servez-vous par jour\u00a0?', answer: 'text' }],
};
const SECTORS = [...SECTOR_DESCRIPTORS, RESTAURANTS];
const KINDS = LEAD_KINDS.map((kind) =>
  kind.kind === 'audit'
    ? auditKind(auditRequestSchema(SECTORS.map(({ sector }) => sector)), SECTORS)
    : kind,
);
const SITE_URL = 'https://agence.example';

const PAGE = `---
title: "Audit de visibilité pour restaurants et cafés"
description: "Audit de présence en ligne pour restaurants : carte, horaires, réservation, avis."
updated: "2026-11-28"
sector: restaurants
---

## Ce que l’audit vérifie

La carte, les horaires et la réservation, là où vos clients les cherchent.
`;

const content = mkdtempSync(join(tmpdir(), 'leadgate-fourth-sector-'));
cpSync(join(SITE_DIR, 'content'), content, { recursive: true });
afterAll(() => rmSync(content, { recursive: true, force: true }));

const word = (name: string) => new RegExp(`(^|[^\\p{L}])${name}($|[^\\p{L}])`, 'iu');
const TODAY = SECTOR_DESCRIPTORS.map(({ name }) => word(name));
/**
 * The agency's summary of itself is its own prose in its identity file (site/agency.yaml, docs/site.md),
 * not a list the code writes: the agency rewrites it when it opens a sector.
 */
const AGENCY_WORDS = [AGENCY.summary];

/** Sentences (or lines) of `text` that name every sector of today but not the new one. */
function forgetting(text: string): string[] {
  return text
    .split(/\n|\. /)
    .filter((line) => TODAY.every((name) => name.test(line)))
    .filter((line) => !word('restaurants').test(line))
    .filter((line) => !AGENCY_WORDS.some((words) => words.includes(line.trim())));
}

/** Every string inside a JSON document, one a line. */
function stringsOf(value: unknown): string {
  return JSON.stringify(value, null, 1)
    .split('\n')
    .map((line) => line.replace(/\\n/g, '\n'))
    .join('\n');
}

describe('a fourth sector needs one descriptor and its page (docs/architecture.md)', () => {
  it('without its page, the build stops and names the missing file', () => {
    expect(() => loadPages(content, { sectors: SECTORS, kinds: KINDS })).toThrow(ContentError);
    expect(() => loadPages(content, { sectors: SECTORS, kinds: KINDS })).toThrow(
      'secteurs/restaurants.md',
    );
  });

  it('every page lists and counts it, in its HTML and its Markdown', () => {
    writeFileSync(join(content, 'secteurs', 'restaurants.md'), PAGE);
    const pages = loadPages(content, { sectors: SECTORS, kinds: KINDS });
    for (const page of pages) {
      const markdown = pageMarkdown(page, SITE_URL);
      expect(forgetting(markdown), page.source).toEqual([]);
      expect(forgetting(renderMarkdown(page.body, page.source)), page.source).toEqual([]);
      expect(markdown, page.source).not.toMatch(/\btrois (audits|secteurs)\b/i);
    }
    const sectorsPage = pages.find((page) => page.path === '/secteurs')!;
    expect(sectorsPage.body).toContain('## Les quatre audits');
    expect(sectorsPage.body).toContain('[Restaurants et cafés](/secteurs/restaurants)');
    const home = pages.find((page) => page.path === '/')!;
    expect(home.body).toContain('[restaurants](/secteurs/restaurants)');
    const restaurants = pages.find((page) => page.sector === ('restaurants' as never))!;
    expect(pageMarkdown(restaurants, SITE_URL)).toContain('Combien de couverts');
  });

  it('llms.txt links its page and questionnaire, and the audit action names it', () => {
    const pages = loadPages(content, { sectors: SECTORS, kinds: KINDS });
    const llms = llmsTxt(pages, SITE_URL, { sectors: SECTORS, kinds: KINDS });
    expect(forgetting(llms)).toEqual([]);
    expect(llms).toContain(`(${SITE_URL}/secteurs/restaurants.md)`);
    expect(llms).toContain(`(${SITE_URL}/secteurs/restaurants.json)`);
  });

  it('/openapi.json and /developers accept and describe it', () => {
    const document = buildOpenApiDocument(SITE_URL, KINDS);
    expect(forgetting(stringsOf(document))).toEqual([]);
    const audit = document.components.schemas.AuditRequest as unknown as {
      properties: { sector: { enum: string[] } };
    };
    expect(audit.properties.sector.enum).toContain('restaurants');
    expect(document.paths['/api/audit']?.post.description).toContain('restaurants');
    expect(forgetting(developersReference(SITE_URL, { kinds: KINDS }))).toEqual([]);
  });

  it('the MCP tool and the server card name it', () => {
    const tool = toolOf(KINDS.find((kind) => kind.kind === 'audit')!);
    expect(forgetting(stringsOf(tool))).toEqual([]);
    expect(tool.description).toContain('restaurants');
    expect(forgetting(stringsOf(serverCard(SITE_URL, [], true, KINDS)))).toEqual([]);
  });
});
