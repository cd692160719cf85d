// docs/performance.md: finds the bundle `leadgate build` wrote (src/cli/bundle-cli.ts) and returns its URL only
// if every file standing for its inputs is unchanged (same mtime and size), so an edit of the project's files or
// an install is never ignored.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../../', import.meta.url);
// Plain paths (the inputs are relative, with /): turning ~290 URLs into paths cost more than the
// stats themselves.
const rootPath = fileURLToPath(root);

export function freshBundle(cache = new URL('node_modules/.cache/leadgate/', root)) {
  try {
    const { entry, inputs } = JSON.parse(readFileSync(new URL('current.json', cache), 'utf8'));
    for (const [path, mtimeMs, size] of inputs) {
      const stat = statSync(rootPath + path);
      if (stat.mtimeMs !== mtimeMs || stat.size !== size) return undefined;
    }
    const url = new URL(entry, cache);
    statSync(url);
    return url;
  } catch {
    return undefined;
  }
}
