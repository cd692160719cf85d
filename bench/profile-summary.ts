// Summarises a .cpuprofile written by `node --cpu-prof`: self time by function and by file/package,
// so "where does the time go" has an answer without opening DevTools. Usage: tsx bench/profile-summary.ts FILE
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const file = process.argv[2];
if (!file) throw new Error('usage: profile-summary.ts FILE.cpuprofile [top]');
const top = Number(process.argv[3] ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));

const selfMicros = new Map<number, number>();
profile.samples.forEach((id, index) => {
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);

function place(url: string): string {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0)
    return url
      .slice(modules + 13)
      .split('/')
      .slice(0, 2)
      .join('/')
      .replace(/\/[^@].*$/, '');
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\/.*?\/(src|bench|bin)\//, '$1/');
}

function table(title: string, key: (node: ProfileNode) => string) {
  const sums = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id);
    if (node) sums.set(key(node), (sums.get(key(node)) ?? 0) + micros);
  }
  console.log(`\n${title} (self time, ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [name, micros] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`);
  }
}

table('By package or file', (node) => place(node.callFrame.url));
table(
  'By function',
  (node) =>
    `${node.callFrame.functionName || '(anonymous)'}  ${place(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`,
);

// Inclusive time (the function and everything it called) of the frames whose name matches argv[4].
const pattern = process.argv[4] ? new RegExp(process.argv[4]) : undefined;
if (pattern) {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at)!;
      const name = `${node.callFrame.functionName || '(anonymous)'}  ${place(node.callFrame.url)}`;
      if (pattern.test(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
      }
    }
  }
  console.log(`\nInclusive time of frames matching ${pattern}`);
  for (const [name, micros] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${((100 * micros) / total).toFixed(1).padStart(5)} %  ${name}`);
  }
}
