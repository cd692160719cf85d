import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, SITE_ENV, startServerProcess, type Started } from './processes.ts';

/** A server process under test and where to reach it. */
export interface ServerUnderTest {
  server: Started;
  pid: number;
  baseUrl: string;
  /** Its DATA_DIR (the journal), for measures that read what it did. */
  dataDir: string;
}

/**
 * Starts a server process on a fresh data directory, runs `work` against it, and stops it. The data
 * directory is kept (bench/out/, removed by the next `npm run bench` before it measures anything):
 * deleting thousands of outbox files mid-run makes ext4 create new files ~15× slower afterwards,
 * which would be measured as the next server's cost.
 */
export async function withServer<T>(
  root: string,
  args: readonly string[],
  env: Record<string, string>,
  work: (target: ServerUnderTest) => Promise<T>,
  /** The checkout the server runs from (`--against` runs another release's). */
  cwd?: string,
): Promise<T> {
  // A journal prepared beforehand (a seeded one) comes as env.DATA_DIR.
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(root, 'server-'));
  const port = await freePort();
  const server = await startServerProcess(
    process.execPath,
    args,
    { ...SITE_ENV, HOST: '127.0.0.1', ...env, PORT: String(port), DATA_DIR: dataDir },
    `http://127.0.0.1:${port}/healthz`,
    { cwd },
  );
  try {
    return await work({
      server,
      pid: server.child.pid!,
      baseUrl: `http://127.0.0.1:${port}`,
      dataDir,
    });
  } finally {
    await server.stop();
  }
}
