import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BuiltAssets {
  stylesheet: string;
  script: string;
  /** Picture markup by name (the file name without `.svg`): site/templates/illustrations.ts. */
  illustrations: Map<string, string>;
  files: Map<string, string>;
}

function fingerprinted(dir: string, name: string, files: Map<string, string>): string {
  const content = readFileSync(join(dir, name), 'utf8');
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 10);
  const path = `assets/${name.replace(/\.(\w+)$/, `.${hash}.$1`)}`;
  files.set(path, content);
  return `/${path}`;
}

/** The content hash in the file name lets the server cache assets for a year (immutable). */
export function buildAssets(assetsDir: string): BuiltAssets {
  const files = new Map<string, string>();
  const stylesheet = fingerprinted(assetsDir, 'site.css', files);
  const script = fingerprinted(assetsDir, 'forms.js', files);
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
  files.set('favicon.svg', readFileSync(join(assetsDir, 'favicon.svg'), 'utf8'));
  return { stylesheet, script, illustrations, files };
}
