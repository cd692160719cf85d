import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { buildSite } from '../../src/features/site/build.ts';

export const DEFAULT_TEST_SITE_URL = 'http://localhost:3000';

export interface TestSite {
  dir: string;
  /** One line per sample value left in the identity, as the build reports them. */
  warnings: string[];
  remove(): void;
}

/**
 * The real site/content built into a temp folder, as `leadgate build` does into dist/. At the default
 * URL it is a private copy of the run's shared build (test/helpers/site-global-setup.ts), so a test
 * may change its folder freely; another URL is built for the caller.
 */
export async function buildTestSite(siteUrl = DEFAULT_TEST_SITE_URL): Promise<TestSite> {
  const root = mkdtempSync(join(tmpdir(), 'leadgate-site-'));
  const dir = join(root, 'dist');
  const remove = () => rmSync(root, { recursive: true, force: true });
  // Outside Vitest (the screenshot scripts) there is no run, so no shared build to copy.
  const shared =
    siteUrl === DEFAULT_TEST_SITE_URL && process.env.VITEST ? inject('sharedSite') : undefined;
  if (shared) {
    cpSync(shared.dir, dir, { recursive: true });
    return { dir, warnings: shared.warnings, remove };
  }
  const result = await buildSite({ siteUrl, outDir: dir });
  return { dir, warnings: result.warnings, remove };
}
