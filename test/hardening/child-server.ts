import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestDatabase, defaultTestDialect } from '../helpers/postgres-databases.ts';
import { buildTestSite } from '../helpers/site.ts';

export interface ChildServer {
  url: string;
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface ChildJournal {
  /** DATA_DIR, and DATABASE_URL in the `postgres` project. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * The journal of this project's child servers (docs/quality.md, « How the suite runs »): SQLite in
 * `dataDir`, or in the `postgres` project (LEADGATE_TEST_DIALECT) a database of its own.
 */
export async function childJournal(dataDir: string): Promise<ChildJournal> {
  if (defaultTestDialect === 'sqlite') return { env: { DATA_DIR: dataDir }, drop: async () => {} };
  const database = await createTestDatabase();
  return { env: { DATA_DIR: dataDir, DATABASE_URL: database.url }, drop: () => database.drop() };
}

/** `leadgate serve` as an operator starts it: a child process configured by its environment only. */
export async function startChildServer(
  env: Record<string, string>,
  port?: number,
): Promise<ChildServer> {
  const chosen = port ?? (await freePort());
  // A private copy of the run's site build: a server given none would build the checkout's dist/,
  // which a developer's running `npm start` serves and reloads (docs/site.md).
  const site = await buildTestSite();
  const child = spawn(process.execPath, ['bin/leadgate.js', 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(chosen),
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'warn',
      // The sources as they are (tsx), not a bundle a previous `leadgate build` may have left behind.
      LEADGATE_BUNDLE: '0',
      DIST_DIR: site.dir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = once(child, 'exit').then(([code, signal]) => {
    site.remove();
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });
  const url = `http://127.0.0.1:${chosen}`;
  // docs/quality.md, « Waits sized for a loaded machine »: the child compiles the sources (tsx)
  // before it listens, 20 s and more when the two cores are shared with the rest of the suite.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`leadgate serve exited: ${output}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`leadgate serve did not start: ${output}`);
    }
    await sleep(50);
  }
  return { url, process: child, exited, output: () => output };
}
