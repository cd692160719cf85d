import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brandShades } from './agency-colors.ts';

export interface BuiltAssets {
  stylesheet: string;
  script: string;
  /**
   * Picture markup by name (the file name without `.svg`):
   * src/features/site/templates/illustrations.ts.
   */
  illustrations: Map<string, string>;
  files: Map<string, string>;
}

function fingerprinted(
  dir: string,
  name: string,
  files: Map<string, string>,
  edit: (content: string) => string = (content) => content,
): string {
  const content = edit(readFileSync(join(dir, name), 'utf8'));
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 10);
  const path = `assets/${name.replace(/\.(\w+)$/, `.${hash}.$1`)}`;
  files.set(path, content);
  return `/${path}`;
}

/** The stylesheet's brand shades (`--accent`, `--accent-dark`, `--soft`) from the identity's colour. */
export function withBrandColor(css: string, brandColor: string): string {
  const shades = brandShades(brandColor);
  return css
    .replace(/--accent: #[0-9a-f]{6};/, `--accent: ${shades.accent};`)
    .replace(/--accent-dark: #[0-9a-f]{6};/, `--accent-dark: ${shades.accentDark};`)
    .replace(/--soft: #[0-9a-f]{6};/, `--soft: ${shades.soft};`);
}

/**
 * The content hash in the file name lets the server cache assets for a year (immutable).
 * `emailTypo`: the suggestion's bundle (email-typo-script.ts), put in front of forms.js.
 */
export function buildAssets(assetsDir: string, brandColor: string, emailTypo = ''): BuiltAssets {
  const files = new Map<string, string>();
  const stylesheet = fingerprinted(assetsDir, 'site.css', files, (css) =>
    withBrandColor(css, brandColor),
  );
  const script = fingerprinted(assetsDir, 'forms.js', files, (js) =>
    emailTypo ? `${emailTypo}\n${js}` : js,
  );
  const illustrationsDir = join(assetsDir, 'illustrations');
  const illustrations = new Map(
    readdirSync(illustrationsDir)
      .filter((name) => name.endsWith('.svg'))
      .sort()
      .map((name) => [
        name.slice(0, -'.svg'.length),
        readFileSync(join(illustrationsDir, name), 'utf8').trim(),
      ]),
  );
  return { stylesheet, script, illustrations, files };
}
