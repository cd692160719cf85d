import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md: the rooms, top first. A module may import its own group or any group of a
 * lower rank; groups of one rank are peers and never import each other, with one exception: the
 * features (one rank, one folder each under src/features/) use each other, but only through the
 * other feature's `index.ts`. A group is a folder or a file, relative to the repository, without
 * extension.
 */
const FEATURES = readdirSync(resolve(import.meta.dirname, '../../src/features'), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => `src/features/${entry.name}`);

const LAYERS: readonly (readonly string[])[] = [
  ['bin'],
  ['src/cli'],
  ['src/server'],
  ['src/app'],
  ['src/wiring'],
  ['src/mcp'],
  ['src/providers'],
  FEATURES,
  // The kernel: what every feature stands on.
  ['src/kernel/http'],
  ['src/kernel/openapi', 'src/kernel/journal', 'src/kernel/observability', 'src/kernel/mail'],
  ['src/kernel/lead'],
  ['src/kernel/schemas'],
  ['src/kernel/config'],
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

/** The most specific group holding the file (`src/kernel/lead` before `src/kernel`). */
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

/**
 * Upward and sideways imports; a feature may import another feature's index.ts, nothing else of it.
 */
function violations(imports: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, targets] of imports) {
    const from = groupOf(file);
    for (const target of targets) {
      const to = groupOf(target);
      // A folder not yet in LAYERS is held only to the no-cycle rule until it is placed.
      if (!from || !to || from.group === to.group) continue;
      const isFeature = (group: string) => FEATURES.includes(group);
      if (isFeature(from.group) && isFeature(to.group) && target === `${to.group}/index.ts`)
        continue;
      if (to.rank <= from.rank) found.push(`${file} → ${target}`);
    }
  }
  return found;
}

describe('import graph of bin/, site/ and src/ (docs/architecture.md)', () => {
  it('reads the imports it checks', () => {
    expect(graph.get('src/app.ts')).toContain('src/kernel/http/error-handler.ts');
    expect(graph.get('bin/leadgate.js')).toContain('src/cli/main.ts');
  });

  it('has no cycle', () => {
    expect(cycles()).toEqual([]);
  });

  it('imports only downwards, never a peer group, and another feature only through its index.ts', () => {
    expect(violations(graph)).toEqual([]);
  });

  it('fails on a feature reaching into another feature, or the kernel into a feature', () => {
    const tampered = new Map(graph);
    tampered.set('src/features/inbox/inbox-routes.ts', [
      ...(graph.get('src/features/inbox/inbox-routes.ts') ?? []),
      'src/features/staff/html.ts',
      'src/features/staff/index.ts',
    ]);
    tampered.set('src/kernel/lead/lead.ts', ['src/features/intake/index.ts']);
    expect(violations(tampered)).toEqual([
      'src/features/inbox/inbox-routes.ts → src/features/staff/html.ts',
      'src/kernel/lead/lead.ts → src/features/intake/index.ts',
    ]);
  });

  it('keeps each index.ts to its own feature, and site/ free of code that imports src/', () => {
    const leaks = [...graph].flatMap(([file, imports]) => {
      const feature = /^(src\/features\/[^/]+)\/index\.ts$/.exec(file)?.[1];
      const fromSite = file.startsWith('site/');
      return imports
        .filter((target) =>
          feature ? !target.startsWith(`${feature}/`) : fromSite && !target.startsWith('site/'),
        )
        .map((target) => `${file} → ${target}`);
    });
    expect(leaks).toEqual([]);
  });
});
