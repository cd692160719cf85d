import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Any UTF-16 code unit outside ASCII. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * docs/performance.md ("Memory"): V8 keeps each module's source text for the life of the process,
 * one byte per character only if every character is Latin-1. esbuild escapes non-ASCII characters in
 * code (its default charset) but leaves comments as written, and it keeps the comments inside class
 * bodies: 48 characters such as "§" or "’" made the 5.3 MB bundle a two-byte string, 10.6 MB of heap.
 * Written as `\uXXXX`, a character in a comment stays readable and, anywhere else, keeps its value.
 * U+2028 and U+2029 end a line in JavaScript: they become a line feed, which also does.
 */
export function escapeNonAscii(outdir: string): void {
  for (const name of readdirSync(outdir)) {
    if (!name.endsWith('.cjs')) continue;
    const file = join(outdir, name);
    const text = readFileSync(file, 'utf8');
    if (!NON_ASCII.test(text)) continue;
    writeFileSync(
      file,
      text.replace(new RegExp(NON_ASCII, 'g'), (unit) =>
        unit === '\u2028' || unit === '\u2029'
          ? '\n'
          : `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`,
      ),
    );
  }
}
