import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDockerEnvFile } from '../helpers/env-files.ts';
import { expectOneLine, launch } from './launch.ts';

/*
 * docs/deployment.md ("Docker"): the image's start as Docker performs it, without a Docker daemon
 * (none on the development machine): the run stage's ENV, then `--env-file` overriding it, then its
 * CMD in its WORKDIR as its USER. The image runs with NODE_ENV=production, so the site's sample
 * identity is refused at start, in one line with exit 2, whatever the build stage allowed.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const NOBODY = 65534;
const asUser = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};

/** The last stage's instructions, continuation lines joined. */
function runStage(): { env: Record<string, string>; workdir: string; cmd: string[]; user: string } {
  const lines = dockerfile.replace(/\\\n\s*/g, ' ').split('\n');
  const stage = lines.slice(lines.findLastIndex((line) => line.startsWith('FROM ')));
  const env: Record<string, string> = {};
  for (const line of stage.filter((line) => line.startsWith('ENV '))) {
    for (const [, name, value] of line.slice(4).matchAll(/(\w+)=(\S+)/g)) env[name!] = value!;
  }
  const last = (instruction: string) =>
    stage.findLast((line) => line.startsWith(`${instruction} `))!.slice(instruction.length + 1);
  return {
    env,
    workdir: last('WORKDIR'),
    cmd: JSON.parse(last('CMD')) as string[],
    user: last('USER'),
  };
}

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'leadgate-image-'));
  chmodSync(scratch, 0o755);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the Docker image’s start (Dockerfile run stage)', { timeout: 120_000 }, () => {
  const stage = runStage();

  it('runs `serve` as the node user, in production, with its state and site outside the code', () => {
    expect(stage.user).toBe('node');
    expect(stage.cmd.slice(-2)).toEqual(['bin/leadgate.js', 'serve']);
    expect(stage.env).toMatchObject({
      NODE_ENV: 'production',
      DATA_DIR: '/var/lib/leadgate',
      DIST_DIR: '/var/lib/leadgate-site/dist',
    });
    // README: `docker run` with --restart and the unquoted env file.
    expect(dockerfile).toContain('docker run -d --restart unless-stopped');
    expect(dockerfile).toContain('--env-file leadgate.env');
  });

  it('with the sample identity and deploy/leadgate.env.example as --env-file: refused at start, one line, exit 2', async () => {
    const volume = join(scratch, 'var-lib');
    mkdirSync(join(volume, 'leadgate'), { recursive: true, mode: 0o700 });
    mkdirSync(join(volume, 'leadgate-site'), { recursive: true });
    if (asUser.uid !== undefined) {
      chownSync(join(volume, 'leadgate'), asUser.uid, asUser.gid);
      chownSync(join(volume, 'leadgate-site'), asUser.uid, asUser.gid);
    }
    const paths = (value: string) => value.replace('/var/lib/', `${volume}/`);
    const fromImage = Object.fromEntries(
      Object.entries(stage.env).map(([name, value]) => [name, paths(value)]),
    );
    const envFile = parseDockerEnvFile(
      readFileSync(join(ROOT, 'deploy/leadgate.env.example'), 'utf8'),
    );
    const [command, ...args] = stage.cmd;
    const launched = launch(command === 'node' ? process.execPath : command!, args, {
      cwd: stage.workdir.replace('/app', ROOT),
      env: { PATH: process.env.PATH ?? '', ...fromImage, ...envFile },
      ...asUser,
    });
    expect(await launched.exited).toEqual({ code: 2, signal: null });
    expect(expectOneLine(launched.stderr())).toMatch(
      /^Configuration invalide : NODE_ENV=production refuse de démarrer : site\/agency\.yaml contient encore \d+ valeurs d’exemple/,
    );
    expect(existsSync(join(volume, 'leadgate-site', 'dist'))).toBe(false);
  });

  it('`docker exec <container> node bin/leadgate.js …` opens the volume’s journal (docs/operations.md)', async () => {
    // A command started in the running container gets the image's ENV and the container's env file.
    const volume = mkdtempSync(join(scratch, 'exec-'));
    chmodSync(volume, 0o755);
    mkdirSync(join(volume, 'leadgate'), { mode: 0o700 });
    if (asUser.uid !== undefined) chownSync(join(volume, 'leadgate'), asUser.uid, asUser.gid);
    const env = {
      PATH: process.env.PATH ?? '',
      ...Object.fromEntries(
        Object.entries(stage.env).map(([name, value]) => [
          name,
          value.replace('/var/lib/', `${volume}/`),
        ]),
      ),
      ...parseDockerEnvFile(readFileSync(join(ROOT, 'deploy/leadgate.env.example'), 'utf8')),
    };
    const exec = (args: string[]) =>
      launch(process.execPath, ['bin/leadgate.js', ...args], {
        cwd: stage.workdir.replace('/app', ROOT),
        env,
        ...asUser,
      });
    const migrated = exec(['db', 'migrate']);
    expect(await migrated.exited, migrated.stderr()).toEqual({ code: 0, signal: null });
    const listed = exec(['leads', 'list']);
    expect(await listed.exited, listed.stderr()).toEqual({ code: 0, signal: null });
    expect(listed.stderr()).toBe(`journal : SQLite ${join(volume, 'leadgate/leadgate.sqlite')}\n`);
  });
});
