import { mkdirSync, renameSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { MANIFEST_FILE } from '../../kernel/schemas/site-manifest.ts';
import { BUILT_IDENTITY_FILE } from './served-identity.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text files worth compressing; the SVG favicon too. Below ~1 KB compression saves nothing useful. */
const COMPRESSIBLE = /\.(html|md|txt|xml|json|css|js|svg)$/;
const MIN_COMPRESS_BYTES = 1024;

/** Brotli and gzip variants written next to each text file, kept only when they are smaller. */
async function compressed(path: string, content: Buffer): Promise<[string, Buffer][]> {
  if (
    !COMPRESSIBLE.test(path) ||
    content.length < MIN_COMPRESS_BYTES ||
    path === MANIFEST_FILE ||
    path === BUILT_IDENTITY_FILE
  ) {
    return [];
  }
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        // Quality 10, not 11: measured on this site, 2 % larger output for a quarter of the time,
        // which keeps the build well under 3 s (docs/performance.md) even on a busy 2-core machine.
        [constants.BROTLI_PARAM_QUALITY]: 10,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzipAsync(content, { level: 9 }),
  ]);
  return [
    [`${path}.br`, br],
    [`${path}.gz`, gz],
  ].filter(([, variant]) => (variant as Buffer).length < content.length) as [string, Buffer][];
}

/**
 * Writes the whole site into a fresh sibling folder, then swaps it in, so a reader never sees a
 * half-built dist/. Refuses to replace a folder that is not an earlier build (a wrong DIST_DIR).
 */
export async function writeSite(
  outDir: string,
  files: Map<string, string | Buffer>,
): Promise<number> {
  const target = resolve(outDir);
  if (
    existsSync(target) &&
    readdirSync(target).length &&
    !existsSync(join(target, MANIFEST_FILE))
  ) {
    throw new Error(
      `${target} exists and is not a site build (no ${MANIFEST_FILE}): not replacing it`,
    );
  }
  const staging = `${target}.building-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const entries = [...files].map(([path, content]) => [path, Buffer.from(content)] as const);
  const variants = (
    await Promise.all(entries.map(([path, content]) => compressed(path, content)))
  ).flat();
  let count = 0;
  for (const [path, content] of [...entries, ...variants]) {
    const file = join(staging, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    count++;
  }
  const previous = `${target}.previous-${process.pid}`;
  if (existsSync(target)) renameSync(target, previous);
  renameSync(staging, target);
  rmSync(previous, { recursive: true, force: true });
  return count;
}
