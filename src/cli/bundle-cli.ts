import { build, type Loader, type Plugin } from 'esbuild';
import {
  existsSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeNonAscii } from './ascii-bundle.ts';
import { freshBundle } from './fresh-bundle.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
/** Read by src/cli/fresh-bundle.js, which decides at each start whether the bundle may be used. */
const CACHE = join(ROOT, 'node_modules', '.cache', 'leadgate');
/** An input edited this close to the build may have been read half-way: the bundle is not trusted. */
const SETTLE_MS = 2000;
const KEEP_OLD_MS = 10 * 60_000;

/**
 * The expression rewritten below, spelt so that this file contains it nowhere: once bundled, this
 * very file goes through keepFileUrls too, and a literal here would be rewritten with the others.
 */
const FILE_URL = ['import', 'meta', 'url'].join('.');

const LOADERS: Record<string, Loader> = { '.ts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js' };

/**
 * Our own sources, the only files that use `import.meta.url` (test/cli/bundle-cli.test.ts checks the
 * dependencies do not). docs/performance.md ("The site build"): sending each of the ~1,800
 * dependency files through a JavaScript callback, to be read and searched there, cost 0.3–0.5 s of
 * CPU per bundle.
 */
const OWN_SOURCES = new RegExp(
  `^${ROOT.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')}/(?:bin|site|src)/.*\\.[cm]?[jt]s$`,
);

/**
 * Code that finds files next to itself (src/features/site/build.ts, src/features/site/freshness.ts)
 * must keep finding them from the bundle: `import.meta.url` becomes the original file's URL,
 * relative to the bundle's (a CommonJS bundle has no `import.meta`; its `__filename` is the
 * bundle's path).
 */
function keepFileUrls(outdir: string): Plugin {
  return {
    name: 'keep-file-urls',
    setup(builder) {
      builder.onLoad({ filter: OWN_SOURCES }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(FILE_URL)) return undefined;
        const path = relative(outdir, args.path).split(sep).join('/');
        const url = `new URL(${JSON.stringify(path)}, require('node:url').pathToFileURL(__filename)).href`;
        const loader = LOADERS[args.path.slice(args.path.lastIndexOf('.'))] ?? 'js';
        return { contents: source.replaceAll(FILE_URL, url), loader };
      });
    },
  };
}

/**
 * docs/performance.md (cold start < 500 ms): tsx compiling ~100 sources and routing ~1,000 dependency files
 * through its loader costs seconds of CPU at each start. `leadgate build` writes the CLI, its
 * dependencies included, as one CommonJS file (what is imported lazily is still evaluated only when
 * used), and bin/leadgate.js runs it as long as none of its inputs changed, with V8's code cache
 * (src/cli/run-bundle.js: Node 20 has none for ES modules). Resolves with why it was not
 * published (a sentence for the operator), or undefined: a failed bundle never fails the build.
 */
export async function bundleCli({
  cacheDir = CACHE,
  settleMs = SETTLE_MS,
}: { cacheDir?: string; settleMs?: number } = {}): Promise<string | undefined> {
  const startedAt = Date.now();
  const name = `build-${startedAt}-${process.pid}`;
  const outdir = join(cacheDir, name);
  try {
    return await publish(startedAt - settleMs, cacheDir, name, outdir);
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    return `Paquet de démarrage rapide non écrit (${error instanceof Error ? error.message : String(error)}) : les démarrages compileront les sources à la volée.`;
  }
}

/** `true` in the bundle (esbuild's `define` below); no such global exists when the sources run. */
declare const LEADGATE_BUNDLED: true;

/**
 * What `leadgate build` runs: a new bundle only when bin/leadgate.js would not run the current one
 * (docs/performance.md, "The site build": esbuild's ~2 s of CPU, most of a build, are then
 * skipped). Code running from the bundle was found fresh by bin/leadgate.js a moment ago: no
 * second check.
 */
export function refreshBundle(): Promise<string | undefined> {
  const fresh = typeof LEADGATE_BUNDLED !== 'undefined' || freshBundle();
  return fresh ? Promise.resolve(undefined) : bundleCli();
}

async function publish(settledBefore: number, cacheDir: string, name: string, outdir: string) {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { cli: join(ROOT, 'src/cli/main.ts') },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // docs/performance.md, "What a start loads": V8 parses the whole bundle at a start without code cache.
    // Identifiers are kept, so a stack trace still names its functions.
    minifyWhitespace: true,
    minifySyntax: true,
    // Native addons (and pg's optional one, esbuild's binary, sharp's libvips) load files next to
    // themselves.
    external: ['better-sqlite3', 'pg-native', 'esbuild', 'sharp'],
    // A package written as an ES module may read its own file URL (email-reply-parser builds its
    // optional `require` from it), which CommonJS leaves undefined: it names the bundle instead.
    define: { LEADGATE_BUNDLED: 'true', [FILE_URL]: '__leadgateBundleUrl' },
    banner: { js: "var __leadgateBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [keepFileUrls(outdir)],
    metafile: true,
    logLevel: 'warning',
  });
  escapeNonAscii(outdir);
  const inputs = Object.keys(result.metafile.inputs);
  if (inputs.some((path) => statSync(join(ROOT, path)).mtimeMs > settledBefore)) {
    rmSync(outdir, { recursive: true, force: true });
    return 'Des sources ont changé pendant la construction : les prochains démarrages les compileront à la volée.';
  }
  // Published by one rename, so a start never sees half a bundle.
  const pointer = join(cacheDir, 'current.json');
  const witnesses = [...freshnessWitnesses(inputs)].map((path) => {
    const stat = statSync(join(ROOT, path));
    return [path, stat.mtimeMs, stat.size] as const;
  });
  writeFileSync(`${pointer}.tmp`, JSON.stringify({ entry: `${name}/cli.cjs`, inputs: witnesses }));
  renameSync(`${pointer}.tmp`, pointer);
  // A process started from an older build may still be starting from it: keep recent ones.
  for (const entry of readdirSync(cacheDir)) {
    const builtAt = Number(entry.split('-')[1]);
    if (entry.startsWith('build-') && entry !== name && builtAt < Date.now() - KEEP_OLD_MS) {
      rmSync(join(cacheDir, entry), { recursive: true, force: true });
    }
  }
  return undefined;
}

/** A file inside an installed package: the package's folder, up to its last `node_modules/<name>`. */
const PACKAGE_FILE = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//;

/**
 * What src/cli/fresh-bundle.js compares at each start (docs/performance.md, starts): the project's own
 * files one by one; an installed package by its package.json, which npm writes anew with the rest
 * of the package; and npm's own record of node_modules (`.package-lock.json`), which every install
 * that changes the tree rewrites. Some 200 `stat` calls at each start instead of one per bundled
 * file (about 2,000). What it cannot see: a hand edit of a file inside node_modules.
 */
function freshnessWitnesses(inputs: readonly string[]): Set<string> {
  const witnesses = new Set<string>();
  for (const path of inputs) {
    const manifest = PACKAGE_FILE.exec(path)?.[1]?.concat('/package.json');
    witnesses.add(manifest && existsSync(join(ROOT, manifest)) ? manifest : path);
  }
  const record = 'node_modules/.package-lock.json';
  if (existsSync(join(ROOT, record))) witnesses.add(record);
  return witnesses;
}
