import { spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * docs/deployment.md: a private PostgreSQL cluster for tests — Debian's binaries, its own temp data directory, a
 * free loopback port — so the suite never depends on (or stops) the machine's shared server, and a
 * test may stop and restart "the database" at will.
 */
export interface PostgresCluster {
  port: number;
  /** A connection URL for `database` (the admin database `postgres` by default). */
  url(database?: string): string;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** The newest Debian PostgreSQL bin directory (`/usr/lib/postgresql/<major>/bin`), if installed. */
export function postgresBinDir(root = '/usr/lib/postgresql'): string | undefined {
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : undefined;
}

export async function startPostgresCluster(
  binDir = postgresBinDir(),
  /** PostgreSQL's own defaults (fsync, synchronous commits), for a benchmark against SQLite's. */
  { durable = false }: { durable?: boolean } = {},
): Promise<PostgresCluster> {
  if (!binDir) throw new Error('PostgreSQL server binaries not found (Debian package postgresql)');
  const home = mkdtempSync(join(tmpdir(), 'leadgate-pg-'));
  const data = join(home, 'data');
  const log = join(home, 'server.log');
  // initdb refuses to run as root: as root, the cluster belongs to the `postgres` system user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(home, Number(await output('id', ['-u', 'postgres'])), 0);
  const run = (tool: string, args: string[]) =>
    asRoot
      ? exec('runuser', ['-u', 'postgres', '--', join(binDir, tool), ...args])
      : exec(join(binDir, tool), args);
  const port = await freePort();
  const user = asRoot ? 'postgres' : userInfo().username;

  await run('initdb', [
    '-D',
    data,
    '-U',
    user,
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  // Durability is not what these tests measure: fsync off keeps CREATE DATABASE per test cheap.
  const fastButForgetful = ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off'];
  const serverOptions = [
    `-p ${port}`,
    `-k ${home}`,
    '-c listen_addresses=127.0.0.1',
    ...(durable ? [] : fastButForgetful),
    '-c max_connections=400',
  ].join(' ');
  const start = async () => {
    try {
      await run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', '-o', serverOptions, 'start']);
    } catch (error) {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
      throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${tail}`);
    }
  };
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']);
  await start();
  return {
    port,
    url: (database = 'postgres') => `postgres://${user}@127.0.0.1:${port}/${database}`,
    start,
    stop,
    async destroy() {
      await stop().catch(() => undefined);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs a tool to completion; stdio is not piped, since the server pg_ctl forks would hold pipes open. */
function exec(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`${[command, ...args].slice(0, 5).join(' ')} exited with ${code}`)),
    );
  });
}

function output(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(text.trim()) : reject(new Error(`${command} exited with ${code}`)),
    );
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
