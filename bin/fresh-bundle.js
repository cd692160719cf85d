// docs/performance.md: finds the bundle `leadgate build` wrote (src/cli/bundle-cli.ts) and returns its URL only
// if every file it was built from is unchanged (same mtime and size), so an edit is never ignored.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const cache = new URL('node_modules/.cache/leadgate/', root);

export function freshBundle() {
  try {
    const { entry, inputs } = JSON.parse(readFileSync(new URL('current.json', cache), 'utf8'));
    for (const [path, mtimeMs, size] of inputs) {
      const stat = statSync(new URL(path, root));
      if (stat.mtimeMs !== mtimeMs || stat.size !== size) return undefined;
    }
    const url = new URL(entry, cache);
    statSync(url);
    return url;
  } catch {
    return undefined;
  }
}
