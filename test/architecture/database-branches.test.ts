import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md, "The journal": which database runs the journal is decided in one place. Only
 * the two adapters, the composition root and the configuration may name a database or ask which one
 * is configured; the rest of `src/` talks to the journal's port.
 */
const MAY_BRANCH = [
  'src/kernel/journal/sqlite/',
  'src/kernel/journal/postgres/',
  'src/wiring/create-store.ts',
  'src/wiring/create-rate-limit-counters.ts',
  'src/wiring/',
  'src/app.ts',
  'src/server.ts',
  'src/kernel/config.ts',
  'src/kernel/config/',
  // The operator's database tools: SQLite's online backup, or the message naming pg_dump.
  'src/cli/db-commands.ts',
  // The first line every command prints (docs/operations.md): which journal it opened.
  'src/cli/journal-choice.ts',
];

/** What branching on the database looks like in this code base. */
const DATABASE_MARKERS = [
  /\bdatabaseUrl\b/,
  /\bskipLocked\b/,
  /process\.env\.DATABASE_URL/,
  /from 'better-sqlite3'/,
  /from 'pg'/,
  /\b(Sqlite|Postgres)(Dialect|Adapter)\b/,
  /\bdialect\s*===/,
];

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The code of a file without its comments, so that a comment may still explain the design. */
function codeOf(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('one decision of the database (docs/architecture.md)', () => {
  it('no source file outside the adapters and the composition root branches on the database', () => {
    const offenders = sourceFiles('src')
      .map((file) => relative(ROOT, join(ROOT, file)))
      .filter((file) => !MAY_BRANCH.some((allowed) => file.startsWith(allowed)))
      .flatMap((file) => {
        const code = codeOf(file);
        return DATABASE_MARKERS.filter((marker) => marker.test(code)).map(
          (marker) => `${file}: ${marker}`,
        );
      });
    expect(offenders).toEqual([]);
  });

  it('catches a branch on the database where one would be added', () => {
    const sample = "if (config.databaseUrl) { /* … */ } import SQLite from 'better-sqlite3';";
    expect(DATABASE_MARKERS.filter((marker) => marker.test(sample))).toHaveLength(2);
  });
});
