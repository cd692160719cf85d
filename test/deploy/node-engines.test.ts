import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * README quick start: Node 20.19 or newer. `npm ci` warns EBADENGINE for any installed package whose
 * `engines.node` excludes it (cookie 2 asks for Node 22: package.json pins light-my-request's to 1.x,
 * which has the same API, through `overrides`).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

describe('package-lock.json', () => {
  it('installs nothing that refuses the Node version package.json promises', () => {
    const manifest = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    const oldest = semver.minVersion(manifest.engines.node)!.version;
    const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
    };
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => {
        const node = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
        return path !== '' && node !== undefined && !semver.satisfies(oldest, node);
      })
      .map(([path, entry]) => `${path} ${JSON.stringify(entry.engines)}`);
    expect(oldest).toBe('20.19.0');
    expect(refusing).toEqual([]);
  });
});
