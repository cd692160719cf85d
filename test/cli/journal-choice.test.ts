import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { journalLine } from '../../src/cli/journal-choice.ts';
import { expectOneLine, launch } from '../deploy/launch.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';

/*
 * docs/operations.md ("Une commande sur le bon journal"): every command that opens the journal says
 * which one on its first line (stderr, so JSON and CSV on stdout stay clean); a command that would act
 * on a new, empty journal instead of the service's is refused in one line; `leadgate --env-file`
 * runs any command with the service's env file.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(join(tmpdir(), 'leadgate-journal-choice-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PRODUCTION = {
  NODE_ENV: 'production',
  ALLOW_SAMPLE_IDENTITY: '1',
  MAIL_PROVIDER: 'outbox',
  MAIL_FROM: 'Atelier Boréal <bonjour@atelier-boreal.fr>',
  AGENCY_EMAIL: 'equipe@atelier-boreal.fr',
};

describe('a command on the right journal', { timeout: 120_000 }, () => {
  it('team add where no journal exists: one line, exit 2, no journal created, no link printed', async () => {
    const dataDir = mkdtempSync(join(scratch, 'checkout-data-'));
    const run = await runLeadgate(['team', 'add', 'patron@atelier-boreal.fr', '--admin'], {
      DATA_DIR: dataDir,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `Configuration invalide : aucun journal à ${join(dataDir, 'leadgate.sqlite')} (DATA_DIR) : « leadgate team add » travaille sur le journal du service et n’en crée pas ; lancez-la avec l’environnement du service (docs/operations.md, « Une commande sur le bon journal »)\n`,
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('leads replay from cron without the service’s environment: refused, not « 0 livrée(s) »', async () => {
    const dataDir = mkdtempSync(join(scratch, 'cron-data-'));
    const run = await runLeadgate(['leads', 'replay'], { DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/« leadgate leads replay » travaille sur le journal du service/);
    expect(existsSync(join(dataDir, 'leadgate.sqlite'))).toBe(false);
  });

  it('serve in production without DATA_DIR: refused in one line, nothing created in the working directory', async () => {
    const cwd = mkdtempSync(join(scratch, 'cwd-'));
    const launched = launch(process.execPath, [join(ROOT, 'bin/leadgate.js'), 'serve'], {
      cwd,
      env: { PATH: process.env.PATH ?? '', ...PRODUCTION, DIST_DIR: join(cwd, 'dist') },
    });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    expect(expectOneLine(launched.stderr())).toBe(
      `Configuration invalide : NODE_ENV=production sans DATA_DIR ni DATABASE_URL : « leadgate serve » créerait un journal neuf à ${join(cwd, 'data', 'leadgate.sqlite')} ; lancez-la avec l’environnement du service (docs/operations.md, « Une commande sur le bon journal »)`,
    );
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('names the journal on the first line of stderr; stdout keeps only the JSON', async () => {
    const dataDir = mkdtempSync(join(scratch, 'service-data-'));
    const migrated = await runLeadgate(['db', 'migrate'], { DATA_DIR: dataDir });
    expect(migrated.journal).toBe(`journal : SQLite ${join(dataDir, 'leadgate.sqlite')}`);
    const run = await runLeadgate(['leads', 'export', '--format', 'json'], { DATA_DIR: dataDir });
    expect(run).toMatchObject({ code: 0, stdout: '[]\n', stderr: '' });
    expect(run.journal).toBe(`journal : SQLite ${join(dataDir, 'leadgate.sqlite')}`);
  });

  it('--env-file: the service’s env file (single-quoted, as systemd and sh read it) picks the journal', async () => {
    const dataDir = mkdtempSync(join(scratch, 'env-file-data-'));
    expect((await runLeadgate(['db', 'migrate'], { DATA_DIR: dataDir })).code).toBe(0);
    const file = join(scratch, 'leadgate.env');
    writeFileSync(
      file,
      `# the service's settings\nDATA_DIR='${dataDir}'\nMAIL_FROM='Atelier Boréal <bonjour@atelier-boreal.fr>'\nSITE_URL=https://atelier-boreal.fr\n`,
    );
    const run = await runLeadgate(
      ['--env-file', file, 'team', 'add', 'patron@atelier-boreal.fr', '--admin'],
      {},
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.journal).toBe(`journal : SQLite ${join(dataDir, 'leadgate.sqlite')}`);
    expect(run.stdout).toContain('https://atelier-boreal.fr/equipe/invitation?jeton=');
    // The environment wins over the file, as systemd's command line over its EnvironmentFile=.
    const other = mkdtempSync(join(scratch, 'other-data-'));
    const overridden = await runLeadgate(['--env-file', file, 'leads', 'list'], {
      DATA_DIR: other,
    });
    expect(overridden.code).toBe(2);
    expect(overridden.stderr).toContain(join(other, 'leadgate.sqlite'));
  });

  it('an env file that cannot be read is one line, exit 2', async () => {
    const run = await runLeadgate(['--env-file', join(scratch, 'nope.env'), 'leads', 'list'], {});
    expect(run).toMatchObject({
      code: 2,
      stderr: `Configuration invalide : --env-file ${join(scratch, 'nope.env')} : fichier illisible (ENOENT)\n`,
    });
  });

  it('names a PostgreSQL journal by server and database, never with its password', () => {
    expect(
      journalLine({
        dataDir: '/unused',
        databaseUrl: 'postgres://leadgate:s3cret@db.internal:5432/leadgate',
      }),
    ).toBe('journal : PostgreSQL leadgate@db.internal:5432/leadgate');
  });
});
