import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLeadgate, type CliRun } from '../helpers/leadgate-cli.ts';
import { freePort } from '../helpers/postgres-cluster.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';

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

/**
 * `leadgate serve` with what an operator sets (in this process, as bin/leadgate.js runs it): each
 * setting below stops the start, so it ends; a good config would keep serving.
 */
async function serve(env: Record<string, string>): Promise<CliRun> {
  return runLeadgate(['serve'], {
    DATA_DIR: join(scratch, 'data'),
    DIST_DIR: site.dir,
    SITE_URL: 'http://localhost:3000',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    ...env,
  });
}

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
