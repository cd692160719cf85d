import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSystemdEnvironmentFile } from '../helpers/env-files.ts';
import { freePort } from '../helpers/postgres-cluster.ts';
import { expectOneLine, healthyOrExited } from './launch.ts';
import {
  directivesOf,
  leadgateRun,
  ROOT,
  scratchHost,
  startUnit as startOnHost,
} from './systemd-emulation.ts';

/*
 * docs/deployment.md ("systemd"): deploy/leadgate.service started as systemd starts it, with its
 * documented env file. systemd.exec(5): Environment= first, then EnvironmentFile= overriding it,
 * then ExecStart (here `/usr/bin/env` setting the paths and NODE_ENV, so the file cannot fight
 * them). The service user (DynamicUser=) owns only the state directory: as root, this test runs
 * the service as `nobody` in this checkout, which that user cannot write, as in /opt/leadgate.
 * Every start either answers /healthz or refuses with one line and exit 2, which
 * RestartPreventExitStatus=2 does not restart: never a stack trace and exit 1 every RestartSec.
 */
const unit = readFileSync(join(ROOT, 'deploy/leadgate.service'), 'utf8');

const directives = (name: string) => directivesOf(unit, name);

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-unit-'));
  // Like /var/lib: the service user may pass through to its own directory.
  chmodSync(scratch, 0o755);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Starts the unit's ExecStart with `envFile` as /etc/leadgate/leadgate.env, its paths pointed at
 * this checkout and a fresh state directory (StateDirectory=, mode StateDirectoryMode=, owned by
 * the service user).
 */
function startUnit(envFile: string) {
  const host = scratchHost(scratch);
  writeFileSync(join(host.etc, 'leadgate.env'), envFile);
  const launched = startOnHost(unit, host);
  const { PORT } = parseSystemdEnvironmentFile(envFile);
  return {
    launched,
    url: `http://127.0.0.1:${PORT}`,
    stateDir: join(host.varLib, 'leadgate'),
    host,
  };
}

const deployExample = readFileSync(join(ROOT, 'deploy/leadgate.env.example'), 'utf8');

/**
 * What the operator fills in (docs/deployment.md); the sample identity is allowed here, as
 * src/features/site/agency.ts holds it.
 */
async function filledIn(base: string): Promise<string> {
  return `${base}
MAIL_FROM=Atelier Dupont <bonjour@atelier-dupont.fr>
AGENCY_EMAIL=equipe@atelier-dupont.fr
MAIL_PROVIDER=smtp
SMTP_URL=smtp://127.0.0.1:2525
SITE_URL=https://atelier-dupont.fr
ALLOW_SAMPLE_IDENTITY=1
HOST=127.0.0.1
PORT=${await freePort()}
LOG_LEVEL=warn
`;
}

describe(
  'deploy/leadgate.service with its env file, in systemd’s order',
  { timeout: 180_000 },
  () => {
    it('sets DATA_DIR, DIST_DIR and NODE_ENV where the env file cannot override them', () => {
      expect(directives('EnvironmentFile')).toEqual(['/etc/leadgate/leadgate.env']);
      // Nothing for the env file to override: the emulation starts from it (systemd-emulation.ts).
      expect(directives('Environment')).toEqual([]);
      expect(directives('ExecStart')[0]).toMatch(
        /^\/usr\/bin\/env DATA_DIR=\/var\/lib\/leadgate DIST_DIR=\/var\/lib\/leadgate\/dist NODE_ENV=production \/usr\/bin\/node /,
      );
    });

    it('deploy/leadgate@.service is this unit with the instance’s env file, state and paths (« A second site »)', () => {
      const directivesOf = (text: string) =>
        text.split('\n').filter((line) => !line.startsWith('#'));
      const template = readFileSync(join(ROOT, 'deploy/leadgate@.service'), 'utf8');
      const instanceLines = directivesOf(template).filter((line) => line.includes('%i'));
      expect(instanceLines).toEqual([
        "Description=leadgate (%i): the agency's site and lead-intake API",
        'EnvironmentFile=/etc/leadgate/%i.env',
        'StateDirectory=leadgate/%i',
        expect.stringMatching(
          /^ExecStart=\/usr\/bin\/env DATA_DIR=\/var\/lib\/leadgate\/%i DIST_DIR=\/var\/lib\/leadgate\/%i\/dist NODE_ENV=production /,
        ),
      ]);
      const asPlain = template
        .replaceAll(' (%i):', ':')
        .replaceAll('/etc/leadgate/%i.env', '/etc/leadgate/leadgate.env')
        .replaceAll('leadgate/%i', 'leadgate');
      expect(directivesOf(asPlain)).toEqual(directivesOf(unit));
    });

    it('deploy/leadgate.env.example as shipped: refused in one line, exit 2 (not restarted)', async () => {
      const { launched, stateDir } = startUnit(deployExample);
      expect(await launched.exited).toEqual({ code: 2, signal: null });
      expect(directives('RestartPreventExitStatus')).toEqual(['2']);
      expect(expectOneLine(launched.stderr())).toMatch(
        /^Configuration invalide : NODE_ENV=production refuse de démarrer : site\/agency\.yaml contient encore/,
      );
      expect(existsSync(join(stateDir, 'dist'))).toBe(false);
    });

    it('deploy/leadgate.env.example filled in: starts, the site built into the state directory', async () => {
      const { launched, url, stateDir } = startUnit(await filledIn(deployExample));
      try {
        expect(await healthyOrExited(launched, url), launched.stderr()).toBe('healthy');
        expect(existsSync(join(stateDir, 'dist', 'index.html'))).toBe(true);
        expect(existsSync(join(stateDir, 'leadgate.sqlite'))).toBe(true);
      } finally {
        launched.process.kill('SIGTERM');
      }
      expect(await launched.exited).toEqual({ code: 0, signal: null });
    });

    it('deploy/leadgate-run: a command with the unit’s user, env file, state directory and paths', async () => {
      // Run as systemd-run runs it: the env file, then the command line, in the unit's directory.
      const envFile = await filledIn(deployExample);
      const { launched, url, stateDir, host } = startUnit(envFile);
      try {
        expect(await healthyOrExited(launched, url), launched.stderr()).toBe('healthy');
      } finally {
        launched.process.kill('SIGTERM');
      }
      await launched.exited;
      const run = leadgateRun(['leads', 'list'], host, scratch);
      // The properties systemd-run gives the command are the unit's own.
      for (const name of [
        'DynamicUser',
        'StateDirectory',
        'StateDirectoryMode',
        'EnvironmentFile',
        'WorkingDirectory',
        'UMask',
      ]) {
        expect([name, run.properties[name]]).toEqual([name, directives(name)[0]]);
      }
      // DynamicUser= names the service's user after its unit: the command shares its files.
      expect(run.properties.User).toBe('leadgate');
      const [execStart] = directives('ExecStart');
      const paths = run.command.slice(0, run.command.indexOf('/usr/bin/node')).join(' ');
      expect(execStart!.startsWith(`${paths} /usr/bin/node `)).toBe(true);
      expect(run.command.slice(-3)).toEqual(['/opt/leadgate/bin/leadgate.js', 'leads', 'list']);

      const listed = run.launched;
      expect(await listed.exited, listed.stderr()).toEqual({ code: 0, signal: null });
      expect(listed.stderr()).toBe(`journal : SQLite ${join(stateDir, 'leadgate.sqlite')}\n`);
      expect(listed.stdout()).toBe('Aucune demande dans le journal.\n');
    });

    it('.env.example (DATA_DIR=./data, DIST_DIR=./dist) as the env file: the unit’s paths still win', async () => {
      const { launched, url, stateDir } = startUnit(
        await filledIn(readFileSync(join(ROOT, '.env.example'), 'utf8')),
      );
      try {
        expect(await healthyOrExited(launched, url), launched.stderr()).toBe('healthy');
        expect(existsSync(join(stateDir, 'leadgate.sqlite'))).toBe(true);
      } finally {
        launched.process.kill('SIGTERM');
      }
      expect(await launched.exited).toEqual({ code: 0, signal: null });
    });
  },
);
