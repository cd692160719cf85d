import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildSite } from '../../src/features/site/build.ts';
import { DEFAULT_TEST_SITE_URL } from './site.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The site built once for the run at DEFAULT_TEST_SITE_URL; test files copy it (test/helpers/site.ts). */
    sharedSite: { dir: string; warnings: string[] };
  }
}

/**
 * docs/quality.md: the site is built once per run and shared, instead of once per test file (a build
 * is seconds of CPU; a copy of the built folder is milliseconds).
 */
export default async function setup(project: TestProject) {
  const root = mkdtempSync(join(tmpdir(), 'leadgate-shared-site-'));
  const dir = join(root, 'dist');
  const result = await buildSite({ siteUrl: DEFAULT_TEST_SITE_URL, outDir: dir });
  project.provide('sharedSite', { dir, warnings: result.warnings });
  return () => rmSync(root, { recursive: true, force: true });
}
