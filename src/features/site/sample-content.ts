import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import matter from 'gray-matter';

/** The pages shipped with the code (site/content): the example every instance starts from. */
export const SHIPPED_CONTENT_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../site/content',
);

/** The content folder this instance publishes: CONTENT_DIR, else the shipped one (docs/site.md). */
export function contentDirOf(configured: string | undefined): string {
  return configured ? resolve(configured) : SHIPPED_CONTENT_DIR;
}

/** The folder as the operator named it: `site/content`, or CONTENT_DIR. */
export function contentDirName(contentDir: string): string {
  const name = relative(process.cwd(), contentDir);
  return name && !name.startsWith('..') ? name : contentDir;
}

/**
 * docs/site.md ("Contenu d'exemple"): every page of the folder whose front matter says
 * `sample: true`, with the screenshots it shows. The shipped case studies tell of invented clients
 * and results: published as the agency's own, they would be a misleading commercial practice
 * (Code de la consommation, L121-2), so production refuses them like the sample identity.
 */
export function samplePages(contentDir: string): string[] {
  return readdirSync(contentDir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => matter(readFileSync(file, 'utf8')).data.sample === true)
    .map((file) => relative(contentDir, file).split(sep).join('/'))
    .sort();
}
