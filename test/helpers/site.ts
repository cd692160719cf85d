import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite, type BuildResult } from '../../site/build.ts';

export interface TestSite {
  dir: string;
  result: BuildResult;
  remove(): void;
}

/** Builds the real site/content into a temp folder, as `leadgate build` does into dist/. */
export async function buildTestSite(siteUrl = 'http://localhost:3000'): Promise<TestSite> {
  const root = mkdtempSync(join(tmpdir(), 'leadgate-site-'));
  const dir = join(root, 'dist');
  const result = await buildSite({ siteUrl, outDir: dir });
  return { dir, result, remove: () => rmSync(root, { recursive: true, force: true }) };
}
