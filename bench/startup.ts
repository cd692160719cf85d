import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshBundle } from '../src/cli/fresh-bundle.js';
import { freePort, runToEnd, SITE_ENV, startServerProcess } from './lib/processes.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';

/**
 * The code caches src/cli/run-bundle.js wrote next to the current bundle: after `npm ci` there is
 * none for `serve` yet (the prepare script's `leadgate build` runs without serve's node flags).
 */
function forgetCodeCaches(): void {
  const bundle = freshBundle();
  if (!bundle) throw new Error('no fresh CLI bundle: run `npm run build` first');
  const folder = dirname(fileURLToPath(bundle));
  for (const name of readdirSync(folder))
    if (name.endsWith('.v8-cache')) rmSync(join(folder, name));
}

/**
 * The first start after `npm ci` on a fresh clone: `npm ci` has run the prepare script (the site and
 * the CLI bundle are built), the journal does not exist yet, nor the code cache of `serve`. Each
 * start gets a new data directory.
 */
export async function firstStarts(root: string, distDir: string, times: number): Promise<number[]> {
  const results: number[] = [];
  for (let attempt = 0; attempt < times; attempt++) {
    forgetCodeCaches();
    const port = await freePort();
    const server = await startServerProcess(
      process.execPath,
      SERVE_ARGS,
      {
        ...SITE_ENV,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(join(root, 'first-start-')),
        DIST_DIR: distDir,
      },
      `http://127.0.0.1:${port}/healthz`,
    );
    await server.stop();
    results.push(server.firstAnswerMs);
  }
  return results;
}

/**
 * Benchmark 3a: `leadgate serve` from spawn to its first HTTP answer (any status), on an existing
 * journal (a restart, the usual case: the first start of a fresh install also creates the tables).
 */
export async function coldStarts(
  root: string,
  distDir: string,
  times: number,
  env: Record<string, string> = {},
): Promise<number[]> {
  const dataDir = mkdtempSync(join(root, 'start-'));
  const results: number[] = [];
  try {
    let first = true;
    for (let attempt = 0; results.length < times; attempt++) {
      if (attempt > 3 * times) throw new Error('dist/ was rebuilt at almost every start');
      const port = await freePort();
      const server = await startServerProcess(
        process.execPath,
        SERVE_ARGS,
        {
          ...SITE_ENV,
          ...env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DIST_DIR: distDir,
        },
        `http://127.0.0.1:${port}/healthz`,
        { captureStdout: true },
      );
      await server.stop();
      // Left out: the first start (it creates the journal: not a restart), and a start that rebuilt
      // dist/ because a site source changed meanwhile (a build, measured apart).
      if (!first && !server.stdout().includes('site built into'))
        results.push(server.firstAnswerMs);
      first = false;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return results;
}

/** Benchmark 3b: `leadgate build` as a user runs it (process start included), into `distDir`. */
export async function buildOnce(distDir: string): Promise<number> {
  rmSync(distDir, { recursive: true, force: true });
  const start = performance.now();
  await runToEnd(process.execPath, ['bin/leadgate.js', 'build'], {
    ...SITE_ENV,
    DIST_DIR: distDir,
  });
  return performance.now() - start;
}
