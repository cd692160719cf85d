import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md: the layers, top first. A module may import its own group or any group of a
 * lower rank; groups of one rank are peers and never import each other. A group is a folder or a
 * file, relative to the repository, without extension.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['bin'],
  ['src/cli'],
  ['src/server'],
  ['src/app'],
  ['src/wiring'],
  ['src/mcp'],
  ['src/workspace'],
  ['src/privacy'],
  ['site', 'src/http'],
  ['src/openapi', 'src/providers', 'src/store', 'src/observability'],
  ['src/mail'],
  ['src/domain'],
  // The domain's rooms use each other freely (no cycle), but all stand on the lead's own model.
  ['src/domain/lead'],
  ['src/schemas'],
  ['src/config'],
];

const ROOT = resolve(import.meta.dirname, '../..');
const SOURCES = ['bin', 'site', 'src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import of a file, static or dynamic, type-only included, as repository paths. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)));
}

/** The most specific group holding the file (`src/domain/lead` before `src/domain`). */
function groupOf(file: string): { group: string; rank: number } | undefined {
  const path = file.replace(/\.(ts|js)$/, '');
  let found: { group: string; rank: number } | undefined;
  for (const [rank, groups] of LAYERS.entries()) {
    const group = groups.find((name) => path === name || path.startsWith(`${name}/`));
    if (group && group.length > (found?.group.length ?? 0)) found = { group, rank };
  }
  return found;
}

const files = SOURCES.flatMap(sourceFiles);
const graph = new Map(files.map((file) => [file, importsOf(file)]));

/** Tarjan's strongly connected components: any component of more than one file is a cycle. */
function cycles(): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (stack.includes(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file)!.includes(file)) found.push(component.sort());
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

describe('import graph of bin/, site/ and src/ (docs/architecture.md)', () => {
  it('reads the imports it checks', () => {
    expect(graph.get('src/app.ts')).toContain('src/http/api/error-handler.ts');
    expect(graph.get('bin/leadgate.js')).toContain('src/cli/main.ts');
  });

  it('has no cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it('imports only downwards, never a peer group', () => {
    const upward: string[] = [];
    for (const [file, imports] of graph) {
      const from = groupOf(file);
      for (const target of imports) {
        const to = groupOf(target);
        // A folder not yet in LAYERS is held only to the no-cycle rule until it is placed.
        if (!from || !to || from.group === to.group) continue;
        if (to.rank <= from.rank) upward.push(`${file} → ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
