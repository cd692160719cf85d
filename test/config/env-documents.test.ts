import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderEnvExample } from '../../src/config/env-example.ts';
import { variableDocs } from '../../src/config/env-schema.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ENV_EXAMPLE = resolve(ROOT, '.env.example');
const variables = variableDocs();

/** What the file must set once loaded: each default, or an empty value for "unset". */
const expected = Object.fromEntries(
  variables.map((variable) => [
    variable.name,
    variable.default === undefined || variable.default.includes('$') ? '' : variable.default,
  ]),
);

/**
 * EnvironmentFile= as systemd.exec(5) reads it: `#`/`;` comment lines, KEY=VALUE with blanks around
 * the key and value dropped, single quotes literal, double quotes with backslash escapes, a trailing
 * backslash joining the next line.
 */
function parseSystemdEnvironmentFile(text: string): Record<string, string> {
  const result: Record<string, string> = {};
  const lines = text.replace(/\\\n/g, '').split('\n');
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith(';')) continue;
    const equals = trimmed.indexOf('=');
    if (equals <= 0) throw new Error(`systemd would ignore: ${line}`);
    const key = trimmed.slice(0, equals).trim();
    let value = trimmed.slice(equals + 1).trim();
    if (/^'[^']*'$/.test(value)) value = value.slice(1, -1);
    else if (/^"(?:[^"\\]|\\.)*"$/.test(value)) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
    else if (/["'\\]/.test(value)) throw new Error(`unbalanced quoting in: ${line}`);
    result[key] = value;
  }
  return result;
}

describe('.env.example (generated from the configuration schema)', () => {
  it('is exactly what `leadgate config example` writes: every variable, with its default', () => {
    expect(
      readFileSync(ENV_EXAMPLE, 'utf8'),
      'regenerate: npx leadgate config example > .env.example',
    ).toBe(renderEnvExample());
  });

  it('loads in sh with `set -a; . ./.env`: every variable, every value intact', () => {
    const names = variables.map((variable) => variable.name);
    const printed = execFileSync(
      'sh',
      [
        '-c',
        `set -a; . "$1"; set +a; for name in ${names.join(' ')}; do eval "printf '%s\\0' \\"\\$$name\\""; done`,
        'sh',
        ENV_EXAMPLE,
      ],
      { env: { PATH: process.env.PATH }, encoding: 'utf8' },
    );
    const values = printed.split('\0').slice(0, -1);
    expect(Object.fromEntries(names.map((name, index) => [name, values[index]]))).toEqual(expected);
  });

  it('loads as a systemd EnvironmentFile: the same values, quotes removed', () => {
    expect(parseSystemdEnvironmentFile(readFileSync(ENV_EXAMPLE, 'utf8'))).toEqual(expected);
  });
});

describe('README configuration table', () => {
  const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
  const rows = new Map(
    [...readme.matchAll(/^\| `([A-Z0-9_]+)` +\| ([^|]*?) +\|/gm)].map((match) => [
      match[1],
      match[2],
    ]),
  );

  it('lists every variable of the schema with its default, and no other', () => {
    const documented = Object.fromEntries(
      variables.map((variable) => [
        variable.name,
        variable.default === undefined ? '(unset)' : `\`${variable.default}\``,
      ]),
    );
    expect(Object.fromEntries(rows)).toEqual(documented);
  });
});
