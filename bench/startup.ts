import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, runToEnd, startServerProcess } from './lib/processes.ts';

/**
 * Benchmark 3a: `leadgate serve` from spawn to its first HTTP answer (any status), on an existing
 * journal (a restart, the usual case: the first start of a fresh install also creates the tables).
 */
export async function coldStarts(root: string, distDir: string, times: number): Promise<number[]> {
  const dataDir = mkdtempSync(join(root, 'start-'));
  const results: number[] = [];
  try {
    for (let run = 0; run <= times; run++) {
      const port = await freePort();
      const server = await startServerProcess(
        process.execPath,
        ['bin/leadgate.js', 'serve'],
        { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DIST_DIR: distDir },
        `http://127.0.0.1:${port}/healthz`,
      );
      await server.stop();
      // The first start creates the journal: it is not a restart, so it is left out.
      if (run > 0) results.push(server.firstAnswerMs);
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
  await runToEnd(process.execPath, ['bin/leadgate.js', 'build'], { DIST_DIR: distDir });
  return performance.now() - start;
}
