import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { escapeNonAscii } from '../../src/cli/ascii-bundle.ts';

/** docs/performance.md ("Memory"): the bundle is written in ASCII, so V8 keeps its source at one byte a character. */
describe('the bundle written in ASCII (src/cli/ascii-bundle.ts)', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('escapes every other character, and the module means the same', async () => {
    dir = mkdtempSync(join(tmpdir(), 'leadgate-ascii-'));
    const source = [
      '// Returns response’s type — RFC 4291 §2.7\u2028exports.lineEnded = 1;',
      '/* « guillemets » et 😀 */',
      'exports.text = `réponse ’ — 😀`;',
      'exports.pattern = /é+/.test("ééé");',
      "const café = 'ok'; exports.cafe = café;",
    ].join('\n');
    const file = join(dir, 'module.cjs');
    writeFileSync(file, source);
    writeFileSync(join(dir, 'notes.txt'), 'déjà');
    const load = () => {
      const require = createRequire(import.meta.url);
      delete require.cache[file];
      return require(file) as Record<string, unknown>;
    };
    const before = load();
    escapeNonAscii(dir);
    const written = readFileSync(file, 'utf8');
    expect(written).not.toMatch(/[\u0080-\uffff]/);
    const after = load();
    expect({ ...after }).toEqual({ ...before });
    expect(after.lineEnded).toBe(1);
    expect(after.text).toBe('réponse ’ — 😀');
    // Only the bundle's modules are rewritten.
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('déjà');
  });
});
