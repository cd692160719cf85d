import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import matter from 'gray-matter';
import type { AuditQuestion } from '../../kernel/schemas/questionnaires.ts';
import type { Sector } from '../../kernel/schemas/sectors.ts';
import { parseCaseStudy, type CaseStudy } from './case-studies.ts';
import { expandDirectives, REGISTRY, type ContentRegistry } from './content-directives.ts';

export const FORM_KINDS = ['contact', 'diagnostic', 'newsletter', 'audit', 'privacy'] as const;
export type FormKind = (typeof FORM_KINDS)[number];
export type { AuditQuestion, Sector };

/** One Markdown file of site/content, its front matter checked (the content contract of docs/site.md). */
export interface Page {
  /** Source file, relative to the content folder, with forward slashes. */
  source: string;
  /** URL path: "/", "/contact", "/contact/merci"; "/404" for the not-found page. */
  path: string;
  title: string;
  description: string;
  /** YYYY-MM-DD. */
  updated: string;
  noindex: boolean;
  /**
   * An answer with no address of its own (the pages of a newsletter link, docs/consent.md): no
   * canonical URL, no Markdown twin to point to.
   */
  unlisted?: boolean;
  form?: FormKind;
  newsletter: boolean;
  sector?: Sector;
  /** The sector's questionnaire (src/kernel/schemas/questionnaires.ts); none elsewhere. */
  questions: readonly AuditQuestion[];
  /** A « Réalisation » (site/content/realisations/): its `case:` front matter, checked. */
  caseStudy?: CaseStudy;
  /** Markdown body, starting at H2. */
  body: string;
}

export class ContentError extends Error {
  override name = 'ContentError';
}

function listMarkdown(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** `index.md` → its folder, anything else → its path without `.md`. */
export function urlPathOf(source: string): string {
  const withoutExtension = source.replace(/\.md$/, '');
  const path = withoutExtension === 'index' ? '' : withoutExtension.replace(/\/index$/, '');
  return `/${path}`;
}

function text(data: Record<string, unknown>, key: string, source: string): string {
  const value = data[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ContentError(`${source}: front matter "${key}" must be a non-empty string`);
  }
  return value.trim();
}

/** YAML reads an unquoted 2026-11-20 as a Date; both spellings mean the same day. */
function day(data: Record<string, unknown>, source: string): string {
  const value = data.updated;
  const iso = value instanceof Date ? value.toISOString().slice(0, 10) : value;
  if (typeof iso !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(iso) || isNaN(Date.parse(iso))) {
    throw new ContentError(`${source}: front matter "updated" must be a date YYYY-MM-DD`);
  }
  return iso;
}

function oneOf<T extends string>(
  value: unknown,
  allowed: readonly T[],
  key: string,
  source: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  throw new ContentError(`${source}: front matter "${key}" must be one of ${allowed.join(', ')}`);
}

export function parsePage(source: string, raw: string, registry = REGISTRY): Page {
  const { data, content } = matter(expandDirectives(raw, source, registry));
  const sectors = registry.sectors.map((descriptor) => descriptor.sector as Sector);
  const sector = oneOf(data.sector, sectors, 'sector', source);
  // A sector page carries its audit questionnaire even when `form` is left out.
  const form = oneOf(data.form, FORM_KINDS, 'form', source) ?? (sector ? 'audit' : undefined);
  const page: Page = {
    source,
    path: urlPathOf(source),
    title: text(data, 'title', source),
    description: text(data, 'description', source),
    updated: day(data, source),
    noindex: data.noindex === true,
    newsletter: data.newsletter === true,
    questions: registry.sectors.find((descriptor) => descriptor.sector === sector)?.questions ?? [],
    body: content.trim(),
    ...(form && { form }),
    ...(sector && { sector }),
    ...(data.case !== undefined && {
      caseStudy: parseCaseStudy(source, raw, data.case, (message) => {
        throw new ContentError(message);
      }),
    }),
  };
  if (data.questions !== undefined) {
    // One copy of each questionnaire: the API files answers under its exact texts.
    throw new ContentError(`${source}: questions live in src/kernel/schemas/questionnaires.ts`);
  }
  if (page.form === 'audit' && !page.sector) {
    throw new ContentError(`${source}: an audit form needs "sector"`);
  }
  return page;
}

/** Reads every page of the content folder, sorted by URL so the output is stable. */
export function loadPages(contentDir: string, registry: ContentRegistry = REGISTRY): Page[] {
  const pages = listMarkdown(contentDir).map((file) =>
    parsePage(
      relative(contentDir, file).split(sep).join('/'),
      readFileSync(file, 'utf8'),
      registry,
    ),
  );
  if (!pages.some((page) => page.path === '/404')) {
    throw new ContentError('site/content/404.md is missing: the not-found page is required');
  }
  // Each sector of src/kernel/schemas/sector-descriptors.ts is linked from the site's lists: its page exists.
  for (const { sector } of registry.sectors) {
    if (!pages.some((page) => page.sector === sector)) {
      throw new ContentError(
        `site/content/secteurs/${sector}.md is missing: the sector ${sector} needs its page`,
      );
    }
  }
  return pages.sort((a, b) => a.path.localeCompare(b.path));
}
