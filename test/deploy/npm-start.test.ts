import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validContact } from '../helpers/app.ts';
import { freePort } from '../helpers/postgres-cluster.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';
import { healthyOrExited, launch, type Launched } from './launch.ts';

/*
 * README quick start, as a newcomer and a process manager run it: `npm start`.
 * - docs/operations.md ("Private by default"): what lands in a fresh DATA_DIR (journal, outbox
 *   .eml, backups) is readable by the service user only, whatever umask the launcher had.
 * - docs/reliability.md ("Graceful shutdown"): SIGTERM to npm's own process stops the server too
 *   (a supervisor that knows only npm's pid must not leave `node … serve` running).
 */
const ROOT = resolve(import.meta.dirname, '../..');
let site: TestSite;
let scratch: string;
let npm: Launched;
let url: string;
let dataDir: string;

beforeAll(async () => {
  site = await buildTestSite('http://localhost:3000');
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-npm-start-'));
  dataDir = join(scratch, 'data');
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  npm = launch('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: scratch,
      DATA_DIR: dataDir,
      DIST_DIR: site.dir,
      SITE_URL: 'http://localhost:3000',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '0',
    },
  });
  expect(await healthyOrExited(npm, url), npm.stderr()).toBe('healthy');
}, 120_000);
afterAll(() => {
  npm?.process.kill('SIGKILL');
  site?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).map((entry) =>
    join(entry.parentPath, entry.name),
  );
}

/** Every process below `pid` (ps is procps's, present on Debian). */
function descendants(pid: number): number[] {
  const table = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const children = table.filter(([, parent]) => parent === pid).map(([child]) => child);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('npm start', { timeout: 120_000 }, () => {
  it('creates a fresh DATA_DIR whose files nobody else can read: journal, .eml, backup', async () => {
    const answer = await fetch(`${url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(validContact),
    });
    expect(answer.status).toBe(200);
    // The confirmation and the notification reach the outbox in the background (docs/delivery.md).
    const outbox = join(dataDir, 'outbox');
    for (let round = 0; round < 600; round++) {
      const emls = filesUnder(dataDir).filter((file) => file.endsWith('.eml'));
      if (emls.length >= 2) break;
      await sleep(100);
    }
    execFileSync(
      process.execPath,
      ['bin/leadgate.js', 'backup', join(dataDir, 'backups', 'a.sqlite')],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
        stdio: 'pipe',
      },
    );
    const files = filesUnder(dataDir);
    expect(files.filter((file) => file.endsWith('.eml')).length).toBeGreaterThanOrEqual(2);
    expect(files).toContain(join(dataDir, 'leadgate.sqlite'));
    expect(files).toContain(join(dataDir, 'backups', 'a.sqlite'));
    expect(files).toContain(outbox);
    const open = [dataDir, ...files]
      .map((file) => [file, statSync(file).mode & 0o777] as const)
      .filter(([, mode]) => (mode & 0o077) !== 0)
      .map(([file, mode]) => `${file} ${mode.toString(8)}`);
    expect(open).toEqual([]);
  });

  it('stops the server when npm’s own process gets SIGTERM', async () => {
    const below = descendants(npm.process.pid!);
    expect(below.length).toBeGreaterThan(0);
    npm.process.kill('SIGTERM');
    await npm.exited;
    for (let round = 0; round < 300 && below.some(alive); round++) await sleep(100);
    expect(below.filter(alive)).toEqual([]);
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
