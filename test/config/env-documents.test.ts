import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { parseEnv } from 'node:util';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { renderEnvExample } from '../../src/kernel/config/env-example.ts';
import { variableDocs } from '../../src/kernel/config/env-schema.ts';
import { parseDockerEnvFile, parseSystemdEnvironmentFile } from '../helpers/env-files.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ENV_EXAMPLE = resolve(ROOT, '.env.example');
const variables = variableDocs();

/** The values a POSIX shell gets from `set -a; . file`. */
function shellLoaded(file: string, names: string[]): Record<string, string> {
  const printed = execFileSync(
    'sh',
    [
      '-c',
      `set -a; . "$1"; set +a; for name in ${names.join(' ')}; do eval "printf '%s\\0' \\"\\$$name\\""; done`,
      'sh',
      file,
    ],
    { env: { PATH: process.env.PATH }, encoding: 'utf8' },
  );
  const values = printed.split('\0').slice(0, -1);
  return Object.fromEntries(names.map((name, index) => [name, values[index]!]));
}

/** What the file must set once loaded: each default, or an empty value for "unset" or "choose". */
const expected = Object.fromEntries(variables.map((variable) => [variable.name, variable.written]));

describe('.env.example (generated from the configuration schema)', () => {
  it('is exactly what `leadgate config example` writes: every variable, with its default', () => {
    expect(
      readFileSync(ENV_EXAMPLE, 'utf8'),
      'regenerate: npx leadgate config example > .env.example',
    ).toBe(renderEnvExample());
  });

  it('loads in sh with `set -a; . ./.env`: every variable, every value intact', () => {
    expect(shellLoaded(ENV_EXAMPLE, Object.keys(expected))).toEqual(expected);
  });

  it('loads as a systemd EnvironmentFile: the same values, quotes removed', () => {
    expect(parseSystemdEnvironmentFile(readFileSync(ENV_EXAMPLE, 'utf8'))).toEqual(expected);
  });
});

describe('deploy/leadgate.env.example (systemd EnvironmentFile and docker run --env-file)', () => {
  const path = resolve(ROOT, 'deploy/leadgate.env.example');
  const text = readFileSync(path, 'utf8');
  // docs/deployment.md: the unit and the image set the paths, NODE_ENV and (the image) HOST; the
  // file must not fight them.
  const { DATA_DIR, DIST_DIR, NODE_ENV, HOST, ...fromTheFile } = expected;

  it('is exactly what `leadgate config example --env-file` writes', () => {
    expect(
      text,
      'regenerate: node bin/leadgate.js config example --env-file > deploy/leadgate.env.example',
    ).toBe(renderEnvExample('env-file'));
  });

  it('reads the same in systemd, in a POSIX shell and with Node’s --env-file, without the paths, NODE_ENV and HOST', () => {
    expect([DATA_DIR, DIST_DIR, NODE_ENV, HOST]).toEqual(['./data', './dist', '', '127.0.0.1']);
    expect(parseSystemdEnvironmentFile(text)).toEqual(fromTheFile);
    expect(shellLoaded(path, Object.keys(fromTheFile))).toEqual(fromTheFile);
    expect(parseEnv(text)).toEqual(fromTheFile);
  });

  it('a value filled in with spaces and <…> still loads in a shell and in systemd alike', () => {
    const filled = text.replace(
      "MAIL_FROM='Agence <bonjour@agence.example>'",
      "MAIL_FROM='Atelier Boréal <bonjour@atelier-boreal.fr>'",
    );
    const file = join(mkdtempSync(join(tmpdir(), 'leadgate-env-')), 'leadgate.env');
    writeFileSync(file, filled);
    expect(shellLoaded(file, ['MAIL_FROM']).MAIL_FROM).toBe(
      'Atelier Boréal <bonjour@atelier-boreal.fr>',
    );
    expect(parseSystemdEnvironmentFile(filled).MAIL_FROM).toBe(
      'Atelier Boréal <bonjour@atelier-boreal.fr>',
    );
  });

  it('Docker keeps the quotes, leadgate reads the same settings', () => {
    expect(loadConfig(parseDockerEnvFile(text))).toEqual(
      loadConfig(parseSystemdEnvironmentFile(text)),
    );
  });
});

describe('README configuration table', () => {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  const matches = [...readme.matchAll(/^\| `([A-Z0-9_]+)` +\| ([^|]*?) +\|/gm)];
  const rows = new Map(matches.map((match) => [match[1], match[2]]));

  it('lists every variable of the schema with its default, and no other', () => {
    const documented = Object.fromEntries(
      variables.map((variable) => [
        variable.name,
        variable.default === undefined ? '(unset)' : `\`${variable.default}\``,
      ]),
    );
    expect(Object.fromEntries(rows)).toEqual(documented);
    // One row a variable: a reader must not find two answers.
    expect(matches).toHaveLength(rows.size);
  });
});
