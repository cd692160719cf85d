import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/postgres-cluster.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';

const BIN = resolve(import.meta.dirname, '../../bin/leadgate.js');
let site: TestSite;
let scratch: string;

beforeAll(async () => {
  site = await buildTestSite('http://localhost:3000');
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-config-'));
}, 60_000);
afterAll(() => {
  site.remove();
  rmSync(scratch, { recursive: true, force: true });
});

/** `leadgate serve` as an operator starts it; resolves when it exits (a good config would not). */
async function serve(
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const port = String(await freePort());
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, 'serve'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: join(scratch, 'data'),
          DIST_DIR: site.dir,
          SITE_URL: 'http://localhost:3000',
          HOST: '127.0.0.1',
          PORT: port,
          ...env,
        },
        timeout: 30_000,
      },
      (error, _stdout, stderr) => done({ code: error ? (error.code as number) : 0, stderr }),
    );
  });
}

// Each case starts Node and tsx (seconds on a loaded machine).
describe(
  'leadgate serve: a setting that cannot work stops the start, one line, exit 2',
  { timeout: 60_000 },
  () => {
    const unwritable = () => {
      const file = join(scratch, 'a-file');
      writeFileSync(file, '');
      return join(file, 'data');
    };

    it.each([
      ['PORT', () => ({ PORT: '99999' })],
      ['LOG_LEVEL', () => ({ LOG_LEVEL: 'verbose' })],
      ['HOST', () => ({ HOST: 'bogus.invalid' })],
      ['DATA_DIR', () => ({ DATA_DIR: unwritable() })],
      ['MAIL_FROM', () => ({ MAIL_FROM: 'pas une adresse' })],
      ['REDIS_URL', () => ({ REDIS_URL: 'http://127.0.0.1:6379' })],
      ['BREVO_API_KEY', () => ({ MAIL_PROVIDER: 'brevo', BREVO_NEWSLETTER_LIST_ID: '3' })],
      ['BREVO_NEWSLETTER_LIST_ID', () => ({ MAIL_PROVIDER: 'brevo', BREVO_API_KEY: 'k' })],
      ['SMTP_URL', () => ({ MAIL_PROVIDER: 'smtp' })],
      ['TRUST_PROXY', () => ({ TRUST_PROXY: 'true' })],
      ['RATE_LIMIT_ALLOW', () => ({ RATE_LIMIT_ALLOW: '10.0.0.0/99' })],
    ])('%s', async (name, env) => {
      const run = await serve(env());
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(new RegExp(`^Configuration invalide : ${name} [^\\n]*\\n$`));
    });
  },
);
