import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/postgres-cluster.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';
import { expectOneLine, healthyOrExited, launch } from './launch.ts';

/*
 * docs/deployment.md ("Production"): with NODE_ENV=production, `serve` and `dispatch` refuse what
 * would mislead (the site's sample identity, `.example` addresses, an outbox nobody chose) with one
 * line and exit 2, before building or migrating anything; an outbox chosen on purpose starts with a
 * line saying where the e-mails go.
 */
const ROOT = resolve(import.meta.dirname, '../..');
let site: TestSite;
let scratch: string;

beforeAll(async () => {
  site = await buildTestSite('http://localhost:3000');
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-production-'));
}, 60_000);
afterAll(() => {
  site?.remove();
  rmSync(scratch, { recursive: true, force: true });
});

const AGENCY = {
  MAIL_FROM: 'Atelier Dupont <bonjour@atelier-dupont.fr>',
  AGENCY_EMAIL: 'equipe@atelier-dupont.fr',
};

async function leadgate(command: string, env: Record<string, string>) {
  const port = String(await freePort());
  const dataDir = mkdtempSync(join(scratch, 'data-'));
  const launched = launch(process.execPath, ['bin/leadgate.js', command], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      DIST_DIR: site.dir,
      SITE_URL: 'http://localhost:3000',
      HOST: '127.0.0.1',
      PORT: port,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  return { launched, url: `http://127.0.0.1:${port}`, dataDir };
}

describe('NODE_ENV=production refuses a start that would mislead', { timeout: 120_000 }, () => {
  it('serve with the sample identity of src/features/site/agency.ts: one line, exit 2, no site built', async () => {
    const fresh = join(mkdtempSync(join(scratch, 'dist-')), 'dist');
    const { launched } = await leadgate('serve', {
      ...AGENCY,
      MAIL_PROVIDER: 'smtp',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      DIST_DIR: fresh,
    });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    expect(expectOneLine(launched.stderr())).toMatch(
      /^Configuration invalide : NODE_ENV=production refuse de démarrer : site\/agency\.yaml still holds \d+ sample values/,
    );
    // A refused start does not rebuild dist/ first.
    expect(existsSync(fresh)).toBe(false);
  });

  it('serve with the .example addresses and no MAIL_PROVIDER: one line naming each', async () => {
    const { launched } = await leadgate('serve', { ALLOW_SAMPLE_IDENTITY: '1' });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    const line = expectOneLine(launched.stderr());
    expect(line).toMatch(/^Configuration invalide : NODE_ENV=production refuse de démarrer : /);
    expect(line).toContain('MAIL_FROM est l’adresse d’exemple « Agence <bonjour@agence.example> »');
    expect(line).toContain('AGENCY_EMAIL est l’adresse d’exemple « equipe@agence.example »');
    expect(line).toContain('MAIL_PROVIDER n’est pas choisi');
  });

  it('dispatch with the default outbox: refused the same way', async () => {
    const { launched } = await leadgate('dispatch', { ...AGENCY, ALLOW_SAMPLE_IDENTITY: '1' });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    expect(expectOneLine(launched.stderr())).toMatch(
      /refuse de démarrer : MAIL_PROVIDER n’est pas choisi : l’outbox par défaut écrit les e-mails dans .*\/outbox et personne ne les reçoit/,
    );
  });

  it('serve with MAIL_PROVIDER=outbox set on purpose: starts, and says where the e-mails go', async () => {
    const { launched, url, dataDir } = await leadgate('serve', {
      ...AGENCY,
      ALLOW_SAMPLE_IDENTITY: '1',
      MAIL_PROVIDER: 'outbox',
    });
    try {
      expect(await healthyOrExited(launched, url)).toBe('healthy');
      // Said once the server listens: wait for the line, bounded.
      for (let round = 0; round < 100 && launched.stderr() === ''; round++) await sleep(100);
      expect(launched.stderr()).toBe(
        `attention : MAIL_PROVIDER=outbox, les e-mails (confirmations, notifications à equipe@atelier-dupont.fr) sont écrits en fichiers .eml dans ${join(dataDir, 'outbox')} et ne partent vers personne\n`,
      );
    } finally {
      launched.process.kill('SIGTERM');
      await launched.exited;
    }
  });
});

describe('a DIST_DIR that must be rebuilt and cannot be written', { timeout: 120_000 }, () => {
  it('is one line and exit 2, not a stack trace from the build', async () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, '');
    const { launched } = await leadgate('serve', { NODE_ENV: '', DIST_DIR: join(file, 'dist') });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    expect(expectOneLine(launched.stderr())).toMatch(
      /^Configuration invalide : DIST_DIR ".*\/a-file\/dist" must be rebuilt but its folder is not writable \((ENOTDIR|EEXIST)\)/,
    );
  });
});
