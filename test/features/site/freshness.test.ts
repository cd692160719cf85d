import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureSiteBuilt, staleReason } from '../../../src/features/site/freshness.ts';

const root = mkdtempSync(join(tmpdir(), 'leadgate-freshness-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('serve builds the site when needed (npm ci && npm start on a fresh clone, docs/site.md)', () => {
  it('builds a missing dist/, then leaves an up-to-date one alone', async () => {
    const dist = join(root, 'missing');
    const lines: string[] = [];
    expect(staleReason(dist, 'http://localhost:3000')).toMatch(/no build yet/);
    await ensureSiteBuilt(dist, 'http://localhost:3000', (line) => lines.push(line));
    expect(existsSync(join(dist, 'index.html'))).toBe(true);
    expect(lines).toHaveLength(1);
    expect(staleReason(dist, 'http://localhost:3000')).toBeNull();
    await ensureSiteBuilt(dist, 'http://localhost:3000', (line) => lines.push(line));
    expect(lines).toHaveLength(1);
  });

  it('rebuilds when SITE_URL changed, since every absolute link depends on it', async () => {
    const dist = join(root, 'moved');
    await ensureSiteBuilt(dist, 'http://localhost:3000', () => {});
    expect(staleReason(dist, 'https://agence.example')).toMatch(/SITE_URL changed/);
  });

  it('refuses to replace a folder that is not a site build', async () => {
    const dist = join(root, 'other');
    mkdirSync(dist);
    writeFileSync(join(dist, 'precious.txt'), 'à garder');
    await expect(ensureSiteBuilt(dist, 'http://localhost:3000', () => {})).rejects.toThrow(
      /not a site build/,
    );
    expect(existsSync(join(dist, 'precious.txt'))).toBe(true);
  });

  // A child process builds the whole site: 10 to 25 s on a loaded 2-core machine (docs/quality.md,
  // « Waits sized for a loaded machine »).
  it('`leadgate build` writes DIST_DIR on SITE_URL', { timeout: 120_000 }, async () => {
    const dist = join(root, 'cli');
    const { stdout } = await promisify(execFile)('node', ['bin/leadgate.js', 'build'], {
      env: { ...process.env, DIST_DIR: dist, SITE_URL: 'https://agence.example' },
    });
    expect(stdout).toMatch(/^\d+ pages, \d+ fichiers écrits dans .* en \d+ ms\n$/);
    expect(staleReason(dist, 'https://agence.example')).toBeNull();
  });
});
