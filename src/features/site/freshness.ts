import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PRIVACY, privacySettingsKey, type PrivacySettings } from './privacy-notice.ts';
import { SHIPPED_CONTENT_DIR } from './sample-content.ts';
import { MANIFEST_FILE, type SiteManifest } from '../../kernel/schemas/site-manifest.ts';
import { assertDistDirWritable } from '../../kernel/config/startup-checks.ts';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..');

/**
 * Everything the build reads: the site's content, the build's code, the schema sources of
 * /developers and /openapi.json, and the e-mail suggestion bundled for the forms (docs/site.md).
 */
const SOURCES = [
  'site',
  'src/features/site',
  'src/kernel/schemas',
  'src/kernel/openapi',
  'src/features/intake/email-typo-suggestion.ts',
];

/** Newest modification below a path; folders count too, since deleting a page only touches its folder. */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path, { withFileTypes: true, recursive: true }).reduce(
    (newest, entry) => Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs),
    stat.mtimeMs,
  );
}

/** Why dist/ must be rebuilt before serving, or null when it is up to date. */
export function staleReason(
  distDir: string,
  siteUrl: string,
  privacy: PrivacySettings = DEFAULT_PRIVACY,
  contentDir: string = SHIPPED_CONTENT_DIR,
): string | null {
  const manifestPath = join(distDir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return `${distDir} has no build yet`;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as SiteManifest;
  if (manifest.siteUrl !== siteUrl) return `SITE_URL changed (${manifest.siteUrl} → ${siteUrl})`;
  if (manifest.settings !== privacySettingsKey(privacy)) {
    return 'the settings the privacy notice states changed';
  }
  if ((manifest.contentDir ?? SHIPPED_CONTENT_DIR) !== contentDir) {
    return `CONTENT_DIR changed (${manifest.contentDir ?? SHIPPED_CONTENT_DIR} → ${contentDir})`;
  }
  const builtAt = statSync(manifestPath).mtimeMs;
  // An identity file outside site/ (AGENCY_FILE, docs/site.md) counts with its images/ folder.
  const identity = process.env.AGENCY_FILE ? [dirname(resolve(process.env.AGENCY_FILE))] : [];
  // So does a content folder outside the checkout (CONTENT_DIR).
  const content = contentDir === SHIPPED_CONTENT_DIR ? [] : [contentDir];
  const changed = [...SOURCES.map((source) => join(ROOT, source)), ...identity, ...content].find(
    (source) => newestChange(source) > builtAt,
  );
  const name = changed?.startsWith(`${ROOT}/`) ? relative(ROOT, changed) : changed;
  return changed ? `${name} changed since the last build` : null;
}

/**
 * `leadgate serve` builds first when needed, so `npm ci && npm start` works on a fresh clone. The
 * build code is only loaded then, which keeps a normal start fast (cold start < 500 ms, docs/performance.md).
 */
export async function ensureSiteBuilt(
  distDir: string,
  siteUrl: string,
  log: (line: string) => void,
  privacy: PrivacySettings = DEFAULT_PRIVACY,
  contentDir: string = SHIPPED_CONTENT_DIR,
): Promise<void> {
  const reason = staleReason(distDir, siteUrl, privacy, contentDir);
  if (!reason) return;
  assertDistDirWritable(distDir);
  const { buildSite } = await import('./build.ts');
  const { identityPolicyFromEnv } = await import('./identity-check.ts');
  const result = await buildSite({
    siteUrl,
    outDir: distDir,
    identity: identityPolicyFromEnv(process.env),
    privacy,
    contentDir,
  });
  // One line at start; `leadgate build` lists each sample value.
  const samples = result.warnings.length
    ? `, ${result.warnings.length} sample identity values left in the identity file (!exemple)`
    : '';
  log(
    `site built into ${distDir} (${reason}): ${result.pages} pages, ${result.files} files, ${result.milliseconds} ms${samples}`,
  );
}
