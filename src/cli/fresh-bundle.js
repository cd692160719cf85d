// docs/performance.md: finds the bundle `leadgate build` wrote (src/cli/bundle-cli.ts) and returns its URL only
// if every file standing for its inputs is unchanged (same mtime and size), so an edit of the project's files or
// an install is never ignored.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../../', import.meta.url);

export function freshBundle(cache = new URL('node_modules/.cache/leadgate/', root)) {
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
