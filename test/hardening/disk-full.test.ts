import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/kernel/observability/logging.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';

/*
 * docs/operations.md (« What fails open, what never does »): a node whose journal cannot take a
 * write (here a full disk: DATA_DIR on a 4 MB tmpfs, filled) answers `/readyz` 503 with the reason,
 * so a load balancer stops sending it leads, logs one line per cause instead of a stack trace per
 * request, and is ready again once a write goes through. Mounting needs root: skipped otherwise.
 */
const mountPoint = mkdtempSync(join(tmpdir(), 'leadgate-disk-full-'));
let mounted = false;
try {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mountPoint], { stdio: 'ignore' });
  mounted = true;
} catch {
  console.log('SKIP: cannot mount a tmpfs here (needs root)');
}
let harness: TestApp | undefined;
afterAll(async () => {
  await harness?.close();
  if (mounted) execFileSync('umount', [mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes zeros until the file system says it is full. */
function fill(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

describe.skipIf(!mounted)('a full disk under DATA_DIR', () => {
  it('/readyz 503 with the reason, one log line per cause, ready again once writes pass', async () => {
    const lines: Record<string, unknown>[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    harness = await buildTestApp({
      // The disk under a SQLite journal; PostgreSQL's own disk is its server's (database-outage.test.ts).
      dialect: 'sqlite',
      env: { DATA_DIR: join(mountPoint, 'data'), DELIVERY: 'queued' },
      logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream),
    });
    const post = (i: number) =>
      harness!.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { ...validContact, EMAIL: `plein-${i}@example.fr` },
      });
    expect((await post(0)).statusCode).toBe(200);
    expect((await harness.app.inject({ url: '/readyz' })).statusCode).toBe(200);

    fill(join(mountPoint, 'filler'));
    const statuses: number[] = [];
    for (let i = 1; i <= 40; i += 1) statuses.push((await post(i)).statusCode);
    expect(statuses.at(-1)).toBe(500);
    expect(statuses.filter((status) => status === 500).length).toBeGreaterThan(30);

    const ready = await harness.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'unavailable',
      reason: expect.stringMatching(
        /^the journal refuses writes \((SQLITE_FULL|SQLITE_IOERR\w*|ENOSPC)\)/,
      ),
    });
    // One line per cause, no stack trace per request.
    const refused = lines.filter((line) =>
      String(line.msg).startsWith('journal: a write was refused'),
    );
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(new Set(refused.map((line) => line.reason)).size).toBe(refused.length);
    expect(lines.filter((line) => JSON.stringify(line).includes('"stack"'))).toEqual([]);

    // Space freed: the next lead is journaled and the node is ready again, without a restart.
    rmSync(join(mountPoint, 'filler'));
    expect((await post(100)).statusCode).toBe(200);
    expect((await harness.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  }, 120_000);
});
