import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasTool } from '../helpers/tools.ts';
import { expectOneLine, launch } from './launch.ts';

/*
 * docs/deployment.md ("N nodes with docker compose"): compose refuses to start without the settings
 * that have no safe default (`${VAR:?message}`), and its one-shot `check` service, run with the
 * image's environment, stops `up` with one line (exit 2) on a provider missing its settings, before
 * any node starts and loops. Interpolation by Docker Compose itself (`docker compose` v2, or
 * Debian's docker-compose 1.29, which needs no daemon; it predates the top-level `name:`).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const REQUIRED = ['POSTGRES_PASSWORD', 'SITE_URL', 'MAIL_PROVIDER', 'MAIL_FROM', 'AGENCY_EMAIL'];
const SETTINGS: Record<string, string> = {
  POSTGRES_PASSWORD: 'mot-de-passe-long',
  SITE_URL: 'https://atelier-dupont.fr',
  MAIL_PROVIDER: 'smtp',
  MAIL_FROM: 'Atelier Dupont <bonjour@atelier-dupont.fr>',
  AGENCY_EMAIL: 'equipe@atelier-dupont.fr',
};

function composeCommand(): string[] | undefined {
  if (spawnSync('docker', ['compose', 'version'], { stdio: 'ignore' }).status === 0) {
    return ['docker', 'compose'];
  }
  return hasTool('docker-compose') ? ['docker-compose'] : undefined;
}
const compose = composeCommand();

let scratch: string;
let file: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-compose-'));
  file = join(scratch, 'compose.yaml');
  const text = readFileSync(join(ROOT, 'deploy/compose.yaml'), 'utf8');
  writeFileSync(file, compose?.[0] === 'docker-compose' ? text.replace(/^name: .*\n/m, '') : text);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function config(env: Record<string, string>) {
  return spawnSync(compose![0]!, [...compose!.slice(1), '-f', file, 'config'], {
    cwd: scratch,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
}

describe.skipIf(!compose)('deploy/compose.yaml', { timeout: 120_000 }, () => {
  it.each(REQUIRED)('refuses to start without %s, naming it', (name) => {
    const run = config(
      Object.fromEntries(Object.entries(SETTINGS).filter(([key]) => key !== name)),
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`set ${name}`);
  });

  it('with the settings, its check service stops `up` in one line on an SMTP provider without SMTP_URL', async () => {
    const run = config(SETTINGS);
    expect(run.status, run.stderr).toBe(0);
    // The check service's environment as compose renders it, over the image's (Dockerfile ENV).
    const rendered = execFileSync(
      process.execPath,
      [
        '-e',
        `const yaml = require('js-yaml'); const doc = yaml.safeLoad(require('fs').readFileSync(0, 'utf8'));
         process.stdout.write(JSON.stringify(doc.services.check.environment))`,
      ],
      { input: run.stdout, encoding: 'utf8', cwd: ROOT },
    );
    const { DATABASE_URL: databaseUrl, ...environment } = JSON.parse(rendered) as Record<
      string,
      string
    >;
    expect(databaseUrl).toBe('postgres://leadgate:mot-de-passe-long@postgres:5432/leadgate');
    // Without the database service, the journal is SQLite in a temp DATA_DIR: the provider's
    // settings are what is checked here.
    const launched = launch(process.execPath, ['bin/leadgate.js', 'check'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        ALLOW_SAMPLE_IDENTITY: '1',
        DATA_DIR: join(scratch, 'data'),
        ...environment,
      },
    });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    expect(expectOneLine(launched.stderr())).toBe(
      'Configuration invalide : SMTP_URL is required by MAIL_PROVIDER=smtp',
    );
  });
});
