import { execFileSync } from 'node:child_process';
import {
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const RUN_BUNDLE = pathToFileURL(resolve(import.meta.dirname, '../../src/cli/run-bundle.js')).href;

/**
 * docs/performance.md ("What a start loads"): bin/leadgate.js runs the CommonJS bundle through
 * src/cli/run-bundle.js, which hands V8 the code cache of an earlier start. Here with a small bundle of
 * our own, run in a child process as bin/leadgate.js does.
 */
describe('running the bundle with its code cache (src/cli/run-bundle.js)', () => {
  let dir: string;
  let bundle: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leadgate-run-bundle-'));
    bundle = join(dir, 'cli.cjs');
    // What a bundle relies on: CommonJS's five names; and a process that lives `KEEP_MS`.
    writeFileSync(
      bundle,
      `const { basename } = require('node:path');
       module.exports.answer = 42;
       console.log(JSON.stringify({ file: basename(__filename), dir: basename(__dirname), answer: exports.answer }));
       setTimeout(() => {}, Number(process.env.KEEP_MS));`,
    );
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = (keepMs: number, flags: string[] = []) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          ...flags,
          '--input-type=module',
          '-e',
          `import { runBundle } from '${RUN_BUNDLE}'; runBundle(new URL('${pathToFileURL(bundle).href}'), 100);`,
        ],
        { env: { ...process.env, KEEP_MS: String(keepMs) }, encoding: 'utf8' },
      ),
    ) as unknown;
  const caches = () => readdirSync(dir).filter((name) => name.endsWith('.v8-cache'));
  const expected = (answer = 42) => ({ file: 'cli.cjs', dir: dir.split('/').at(-1), answer });

  it('runs it as Node runs a CommonJS file, then writes its cache next to it', () => {
    expect(run(400)).toEqual(expected());
    expect(caches()).toHaveLength(1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('uses the cache on the next start: V8 accepts it, so it is not written again', () => {
    run(400);
    const [cache] = caches();
    const written = readFileSync(join(dir, cache!));
    const mtime = statSync(join(dir, cache!)).mtimeMs;
    expect(run(400)).toEqual(expected());
    expect(caches()).toEqual([cache]);
    expect(statSync(join(dir, cache!)).mtimeMs).toBe(mtime);
    expect(readFileSync(join(dir, cache!)).equals(written)).toBe(true);
  });

  it('keeps one cache per set of node flags, so serve and the other commands never undo each other', () => {
    run(400);
    const [plain] = caches();
    run(400, ['--max-semi-space-size=4']);
    expect(caches()).toHaveLength(2);
    expect(caches()).toContain(plain);
  });

  it('does not take the cache of a bundle edited in place, even one of the same length', () => {
    run(400);
    const [cache] = caches();
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('answer = 42', 'answer = 43'));
    utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    expect(run(400)).toEqual(expected(43));
    expect(caches()).toHaveLength(2);
    expect(caches()).toContain(cache);
  });

  it('replaces a cache V8 rejects, and runs the bundle all the same', () => {
    run(400);
    const [cache] = caches();
    writeFileSync(join(dir, cache!), 'not a code cache');
    expect(run(400)).toEqual(expected());
    expect(readFileSync(join(dir, cache!), 'utf8')).not.toBe('not a code cache');
    expect(statSync(join(dir, cache!)).size).toBeGreaterThan(100);
  });

  it('writes it at exit for a command that ends before the cache is due', () => {
    expect(run(0)).toEqual(expected());
    expect(caches()).toHaveLength(1);
    const [cache] = caches();
    const mtime = statSync(join(dir, cache!)).mtimeMs;
    expect(run(0)).toEqual(expected());
    expect(statSync(join(dir, cache!)).mtimeMs).toBe(mtime);
  });

  it('reads a bundle that is not ASCII as UTF-8 (esbuild writes ASCII, which is read as Latin-1)', () => {
    writeFileSync(
      bundle,
      `console.log(JSON.stringify({ file: 'cli.cjs', dir: require('node:path').basename(__dirname), answer: '« déjà » ’' }));`,
    );
    expect(run(0)).toEqual({ ...expected(), answer: '« déjà » ’' });
  });
});
