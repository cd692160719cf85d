import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
      '// Returns response’s type — RFC 4291 §2.7\u2028export const lineEnded = 1;',
      '/* « guillemets » et 😀 */',
      'export const text = `réponse ’ — 😀`;',
      'export const pattern = /é+/.test("ééé");',
      "export const café = 'ok';",
    ].join('\n');
    const file = join(dir, 'module.mjs');
    writeFileSync(file, source);
    writeFileSync(join(dir, 'notes.txt'), 'déjà');
    const before = await import(`${pathToFileURL(file).href}?before`);
    escapeNonAscii(dir);
    const written = readFileSync(file, 'utf8');
    expect(written).not.toMatch(/[\u0080-\uffff]/);
    const after = await import(`${pathToFileURL(file).href}?after`);
    expect({ ...after }).toEqual({ ...before });
    expect(after.lineEnded).toBe(1);
    expect(after.text).toBe('réponse ’ — 😀');
    // Only the bundle's modules are rewritten.
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('déjà');
  });
});
