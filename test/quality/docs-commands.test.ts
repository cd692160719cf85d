import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../../src/cli/program.ts';

/*
 * docs/quality.md ("Commands in the docs"): every command line of a `sh` block in the README,
 * docs/ and bench/README.md is one a reader can run as written, from wherever they stand:
 * - leadgate through a path (`node bin/leadgate.js`, `node /opt/leadgate/bin/leadgate.js`) or
 *   `npm exec --no -- leadgate`, never `npx leadgate` (outside the checkout npx asks the registry
 *   for a package of that name) nor a bare `leadgate` (not on PATH); its subcommand and every
 *   option exist (the same tree `--help` prints);
 * - `npm run <script>`: the script exists in package.json;
 * - a path of this repository (or under /opt/leadgate, where the docs install it) exists;
 * - any other program is one of a known list, so a new one is looked at once.
 * docs/spec/ holds documents copied as published and is not read.
 */
// The command tree only: nothing runs, so the process's own streams do.
const program = createProgram({
  env: {},
  stdout: process.stdout,
  stderr: process.stderr,
  exitCode: 0,
});
const ROOT = resolve(import.meta.dirname, '../..');
const DOCUMENTS = [
  'README.md',
  'bench/README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: object }).scripts,
);
const NPM_COMMANDS = ['ci', 'install', 'start', 'test'];
const OTHER_PROGRAMS = [
  'curl',
  'docker',
  'docker-compose',
  'systemctl',
  'journalctl',
  'pg_dump',
  'pg_restore',
  'psql',
  'head',
  'cp',
  'install',
  'chmod',
  'mkdir',
  'openssl',
  'sqlite3',
  'set',
  'export',
  'cd',
  'sh',
];
const TOP_LEVEL = readdirSync(ROOT).filter((name) => !['node_modules', '.git'].includes(name));

/** Shell words and the operators between commands; quotes and `$(…)` kept inside their word. */
function words(line: string): string[][] {
  const commands: string[][] = [[]];
  let word = '';
  let quote = '';
  let depth = 0;
  const end = () => {
    if (word !== '') commands.at(-1)!.push(word);
    word = '';
  };
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = '';
      else word += char;
    } else if (char === "'" || char === '"') quote = char;
    else if (char === '$' && line[index + 1] === '(') {
      depth++;
      word += '$(';
      index++;
    } else if (depth > 0) {
      if (char === ')') depth--;
      word += char;
    } else if (/\s/.test(char)) end();
    else if ('|&;'.includes(char)) {
      end();
      if (commands.at(-1)!.length > 0) commands.push([]);
    } else word += char;
  }
  end();
  return commands.filter((command) => command.length > 0);
}

/** Command lines of the `sh` blocks: comments dropped, continuations and open quotes joined. */
function commandLines(document: string): string[] {
  const text = readFileSync(join(ROOT, document), 'utf8');
  const lines: string[] = [];
  for (const [, body] of text.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    let pending = '';
    for (const full of body!.split('\n')) {
      const raw = full.replace(/(^|\s)#.*$/, '').trimEnd();
      const line = pending + (pending ? '\n' : '') + raw;
      const quotes = (line.match(/'/g) ?? []).length;
      if (raw.endsWith('\\') || quotes % 2 === 1) {
        pending = raw.endsWith('\\') ? line.slice(0, -1) : line;
        continue;
      }
      pending = '';
      const code = line.trim();
      if (code !== '') lines.push(code);
    }
  }
  return lines;
}

/** The problem with `leadgate <args>`, or undefined: the subcommand and its options, as --help lists them. */
function leadgateProblem(args: string[]): string | undefined {
  let command: Command = program;
  let index = 0;
  // Options of the program itself come before the command's name (`--env-file <file>`).
  for (; index < args.length && args[index]!.startsWith('--'); index++) {
    const option = program.options.find((known) => known.long === args[index]!.split('=')[0]);
    if (!option) return `leadgate has no option ${args[index]} before its command`;
    if ((option.required || option.optional) && !args[index]!.includes('=')) index++;
  }
  for (; index < args.length && !args[index]!.startsWith('-'); index++) {
    const next = command.commands.find((sub) => sub.name() === args[index]);
    if (!next) break;
    command = next;
  }
  if (command.commands.length > 0) return `"${args.join(' ')}" names no command`;
  for (; index < args.length; index++) {
    const arg = args[index]!;
    if (!arg.startsWith('--')) continue;
    const option = command.options.find((known) => known.long === arg.split('=')[0]);
    if (!option && arg !== '--help') return `leadgate ${command.name()} has no option ${arg}`;
    if (option && (option.required || option.optional) && !arg.includes('=')) index++;
  }
  return undefined;
}

/** A path of the repository named in an argument (or under /opt/leadgate), which must exist. */
function missingPath(arg: string): string | undefined {
  const path = arg.replace(/^\/opt\/leadgate\//, '').replace(/^\.\//, '');
  const first = path.split('/')[0]!;
  if (path === arg && !TOP_LEVEL.includes(first)) return undefined;
  if (/[<…*$|]/.test(path)) return undefined;
  return existsSync(join(ROOT, path)) ? undefined : `${arg} does not exist in the repository`;
}

function problem(command: string[]): string | undefined {
  const [program, ...args] = command.filter((_, index) =>
    command.slice(0, index + 1).some((word) => !/^[A-Z_]+=/.test(word)),
  );
  if (program === undefined) return undefined;
  const paths = args.map(missingPath).find(Boolean);
  if (paths) return paths;
  if (program === 'npx') return 'npx may fetch a package from the registry: use npm exec --no --';
  if (program === 'leadgate')
    return 'leadgate is not on PATH: use node /opt/leadgate/bin/leadgate.js';
  // deploy/leadgate-run, installed under /usr/local/bin: leadgate with the systemd unit's environment,
  // or an instance's of leadgate@.service (`--instance <site>` first).
  if (program.endsWith('/leadgate-run')) {
    return leadgateProblem(args[0] === '--instance' ? args.slice(2) : args);
  }
  if (program === 'node') {
    const script = args.findIndex((arg) => arg.endsWith('bin/leadgate.js'));
    return script >= 0 ? leadgateProblem(args.slice(script + 1)) : undefined;
  }
  if (program === 'npm') {
    if (args[0] === 'run') return SCRIPTS.includes(args[1]!) ? undefined : `no script ${args[1]}`;
    if (args[0] === 'exec') {
      const separator = args.indexOf('--');
      if (!args.includes('--no') || args[separator + 1] !== 'leadgate') {
        return 'npm exec without --no may fetch from the registry';
      }
      return leadgateProblem(args.slice(separator + 2));
    }
    return NPM_COMMANDS.includes(args[0]!)
      ? undefined
      : `npm ${args[0]} is not a known npm command`;
  }
  return OTHER_PROGRAMS.includes(program) ? undefined : `${program} is not a known program`;
}

describe('the command lines of the README and docs/', () => {
  const cases = DOCUMENTS.flatMap((document) =>
    commandLines(document).map((line) => [document, line] as const),
  );

  it('are found (the extraction reads the blocks)', () => {
    expect(cases.length).toBeGreaterThan(20);
    expect(cases.some(([, line]) => line.includes('bin/leadgate.js'))).toBe(true);
  });

  it.each(cases)('%s: %s', (_document, line) => {
    expect(words(line).map(problem).filter(Boolean)).toEqual([]);
  });

  it('catches what it is meant to catch', () => {
    expect(problem(['npx', 'leadgate', 'leads', 'list'])).toMatch(/npx/);
    expect(problem(['leadgate', 'backup', 'x'])).toMatch(/PATH/);
    expect(problem(['node', 'bin/leadgate.js', 'leads', 'lst'])).toMatch(/names no command/);
    expect(problem(['node', 'bin/leadgate.js', 'leads', 'list', '--stat', 'dead'])).toMatch(
      /no option --stat/,
    );
    expect(problem(['npm', 'run', 'nope'])).toMatch(/no script/);
    expect(problem(['node', '/opt/leadgate/deploy/nope.env'])).toMatch(/does not exist/);
    expect(problem(['rsync', '-a'])).toMatch(/not a known program/);
    expect(problem(['DATA_DIR=/x', 'node', 'bin/leadgate.js', 'backup', '/y'])).toBeUndefined();
  });
});
