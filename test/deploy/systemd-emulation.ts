import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseSystemdEnvironmentFile } from '../helpers/env-files.ts';
import { launch, type Launched } from './launch.ts';

/*
 * docs/deployment.md ("systemd", « A second site »): deploy/'s units and deploy/leadgate-run, run
 * on this machine as systemd would run them (no systemd runs here). The host's paths are moved into a
 * scratch folder: /etc/leadgate (the env files), /var/lib (the state directories), /opt/leadgate
 * (this checkout). As root, the service runs as `nobody`, which cannot write the checkout.
 */
export const ROOT = resolve(import.meta.dirname, '../..');
const NOBODY = 65534;
export const asService = process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {};

export interface Host {
  /** /etc/leadgate */
  etc: string;
  /** /var/lib */
  varLib: string;
}

/** A fresh host: its /etc/leadgate and /var/lib, which the service user may pass through. */
export function scratchHost(scratch: string): Host {
  const top = mkdtempSync(join(scratch, 'host-'));
  chmodSync(top, 0o755);
  const host = { etc: join(top, 'etc-leadgate'), varLib: join(top, 'var-lib') };
  mkdirSync(host.etc);
  mkdirSync(host.varLib, { mode: 0o755 });
  chmodSync(host.varLib, 0o755);
  return host;
}

/** A path or command line of the units, on this host. */
export function onHost(text: string, host: Host): string {
  return text
    .replaceAll('/etc/leadgate', host.etc)
    .replaceAll('/var/lib', host.varLib)
    .replaceAll('/opt/leadgate', ROOT)
    .replace('/usr/bin/node', process.execPath);
}

/** A unit file's `name=` directives, `%i` given (a template's instance). */
export function directivesOf(unit: string, name: string, instance?: string): string[] {
  const text = instance === undefined ? unit : unit.replaceAll('%i', instance);
  return [...text.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((match) => match[1]!);
}

/** StateDirectory=: created under /var/lib with its mode, owned by the service user. */
function stateDirectory(host: Host, name: string, mode: string): string {
  const dir = join(host.varLib, name);
  if (!existsSync(dir)) {
    // An instance's (leadgate/<site>): the parent is passed through, the leaf is the service's.
    mkdirSync(dirname(dir), { recursive: true, mode: 0o755 });
    mkdirSync(dir, { mode: Number.parseInt(mode, 8) });
  }
  if (asService.uid !== undefined) chownSync(dir, asService.uid, asService.gid);
  return dir;
}

/**
 * Starts a unit's ExecStart as systemd does: StateDirectory= made, then the environment in
 * systemd.exec(5)'s order: Environment= (none in these units), EnvironmentFile=, the command line.
 */
export function startUnit(unit: string, host: Host, instance?: string): Launched {
  const directive = (name: string) => directivesOf(unit, name, instance)[0]!;
  stateDirectory(host, directive('StateDirectory'), directive('StateDirectoryMode'));
  const argv = onHost(directive('ExecStart'), host).split(/\s+/);
  return launch(argv[0]!, argv.slice(1), {
    cwd: onHost(directive('WorkingDirectory'), host),
    env: {
      PATH: process.env.PATH ?? '',
      ...parseSystemdEnvironmentFile(
        readFileSync(onHost(directive('EnvironmentFile'), host), 'utf8'),
      ),
    },
    ...asService,
  });
}

export interface LeadgateRun {
  /** The `--property=` settings deploy/leadgate-run gave systemd-run. */
  properties: Record<string, string>;
  /** The command systemd-run was given to run, as written for the host. */
  command: string[];
  launched: Launched;
}

/**
 * `deploy/leadgate-run <args>` as root runs it: the script itself, with a `systemd-run` on PATH that
 * records what it is asked; then what systemd-run does with it (the state directory, the env file,
 * the user, the working directory), on this host.
 */
export function leadgateRun(args: string[], host: Host, scratch: string): LeadgateRun {
  const bin = mkdtempSync(join(scratch, 'bin-'));
  const record = join(bin, 'arguments');
  writeFileSync(
    join(bin, 'systemd-run'),
    `#!/bin/sh\nfor arg in "$@"; do printf '%s\\n' "$arg"; done > '${record}'\n`,
    { mode: 0o755 },
  );
  const script = spawnSync('/bin/sh', [join(ROOT, 'deploy/leadgate-run'), ...args], {
    env: { PATH: `${bin}:${process.env.PATH ?? ''}` },
    encoding: 'utf8',
  });
  if (script.status !== 0) throw new Error(`leadgate-run: ${script.status} ${script.stderr}`);
  const given = readFileSync(record, 'utf8').split('\n').slice(0, -1);
  const options = given.slice(
    0,
    given.findIndex((arg) => !arg.startsWith('--')),
  );
  if (options.join(' ').indexOf('--quiet --wait --pipe --collect') !== 0) {
    throw new Error(`systemd-run would not wait for the command: ${options.join(' ')}`);
  }
  const properties = Object.fromEntries(
    options
      .filter((arg) => arg.startsWith('--property='))
      .map((arg) => arg.slice('--property='.length).split(/=(.*)/s).slice(0, 2)),
  ) as Record<string, string>;
  const command = given.slice(options.length);
  stateDirectory(host, properties.StateDirectory!, properties.StateDirectoryMode!);
  const argv = command.map((arg) => onHost(arg, host));
  const launched = launch(argv[0]!, argv.slice(1), {
    cwd: onHost(properties.WorkingDirectory!, host),
    env: {
      PATH: process.env.PATH ?? '',
      ...parseSystemdEnvironmentFile(
        readFileSync(onHost(properties.EnvironmentFile!, host), 'utf8'),
      ),
    },
    ...asService,
  });
  return { properties, command, launched };
}
