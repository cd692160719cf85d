// The workspace's inbox over 100,000 leads (docs/workspace.md, "Performances"): its first page, a
// filter and a search, on SQLite and on PostgreSQL. Part of `npm run bench` (--only workspace); run
// alone, it rewrites only its own section of bench/RESULTS.md:
//   node --import tsx bench/workspace.ts [--leads 100000] [--repeats 200] [--dialects sqlite,postgres]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { InboxQuery } from '../src/features/inbox/lead-work.ts';
import type { Store } from '../src/kernel/journal/store.ts';
import { percentile, replaceSection } from './lib/report.ts';
import { seededJournal, type Dialect } from './lib/seeded-journal.ts';

export interface WorkspaceQueryResult {
  name: string;
  p50: number;
  p95: number;
  rows: number;
  total: number;
}

export interface WorkspaceRound {
  dialect: Dialect;
  leads: number;
  seedSeconds: number;
  /** The machine's 1-minute load average when the measures started and ended (others' jobs). */
  load: [number, number];
  queries: WorkspaceQueryResult[];
}

/** The queries measured: what the inbox asks on opening, with a filter, and with a search. */
export const QUERIES: { name: string; query: InboxQuery }[] = [
  { name: 'Inbox, first page (newest first)', query: { limit: 50 } },
  {
    name: 'Filter: audits « en cours » of one assignee',
    query: { limit: 50, kinds: ['audit'], workStatuses: ['en-cours'], assignee: 'staff-bruno' },
  },
  {
    name: 'Filter: « nouveau », by answer due (the promise)',
    query: { limit: 50, workStatuses: ['nouveau'], kinds: ['contact', 'audit'], order: 'due' },
  },
  {
    name: 'Filter: a sector and a channel',
    query: { limit: 50, sector: 'btp', channels: ['assistant'] },
  },
  { name: 'Search: a surname', query: { limit: 50, search: 'nom2zard' } },
  {
    name: 'Search: an e-mail address',
    query: { limit: 50, search: 'paul.nomyard.12342@example.fr' },
  },
  { name: 'Search: a common word (worst case)', query: { limit: 50, search: 'google' } },
];

async function measure(store: Store, repeats: number): Promise<WorkspaceQueryResult[]> {
  const results: WorkspaceQueryResult[] = [];
  for (const { name, query } of QUERIES) {
    for (let i = 0; i < 10; i += 1) await store.work.page(query);
    const times: number[] = [];
    let page = await store.work.page(query);
    for (let i = 0; i < repeats; i += 1) {
      const start = performance.now();
      page = await store.work.page(query);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    results.push({
      name,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      rows: page.entries.length,
      total: page.total,
    });
  }
  return results;
}

export async function workspaceRound(
  dialect: Dialect,
  leads: number,
  repeats: number,
): Promise<WorkspaceRound> {
  const journal = await seededJournal(dialect, leads);
  try {
    const loadBefore = loadavg()[0]!;
    const queries = await measure(journal.store, repeats);
    const load: [number, number] = [loadBefore, loadavg()[0]!];
    return { dialect, leads, seedSeconds: journal.seedSeconds, load, queries };
  } finally {
    await journal.destroy();
  }
}

export const WORKSPACE_TITLE = '## The workspace’s inbox over 100,000 leads';

export function workspaceSection(rounds: WorkspaceRound[], repeats: number): string {
  const rows = rounds.flatMap((round) =>
    round.queries.map(
      (q) =>
        `| ${round.dialect} | ${q.name} | ${q.total.toLocaleString('en-US')} | ${q.p50.toFixed(1)} ms | ${q.p95.toFixed(1)} ms | ${q.p95 < 50 ? '**met**' : '**not met**'} |`,
    ),
  );
  const seeds = rounds.map((r) => `${r.dialect} ${r.seedSeconds.toFixed(0)} s`).join(', ');
  const busy = rounds.some((r) => Math.max(...r.load) > cpus().length);
  const loads = rounds
    .map((r) => `${r.dialect} ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`)
    .join(', ');
  return `${WORKSPACE_TITLE}

\`store.work.page()\` as \`/equipe\` calls it (50 rows and the filter's total), in the benchmark's own
process, on a journal of ${rounds[0]?.leads.toLocaleString('en-US') ?? 0} leads (a year of arrivals, three kinds, four
assignees, 1 % held as spam) with the migrations' indexes; each query ${repeats} times after 10 warm-ups.
Target: p95 < 50 ms. Seeding (batched inserts, search index fed by its triggers or GIN): ${seeds}.
Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; the machine's load average (1 min)
at the start and the end of the measures: ${loads}${busy ? ` (above its ${cpus().length} cores: other jobs shared them, and the p95 carries their load)` : ''}.

| Journal | Query | Matching leads | p50 | p95 | < 50 ms |
| --- | --- | ---: | ---: | ---: | --- |
${rows.join('\n')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      leads: { type: 'string', default: '100000' },
      repeats: { type: 'string', default: '200' },
      dialects: { type: 'string', default: 'sqlite,postgres' },
      output: { type: 'string', default: 'bench/RESULTS.md' },
    },
  });
  const rounds: WorkspaceRound[] = [];
  for (const dialect of values.dialects.split(',') as ('sqlite' | 'postgres')[]) {
    process.stderr.write(`workspace on ${dialect}: seeding ${values.leads} leads\n`);
    const round = await workspaceRound(dialect, Number(values.leads), Number(values.repeats));
    for (const q of round.queries) {
      process.stderr.write(
        `  ${q.name}: p50 ${q.p50.toFixed(1)} ms, p95 ${q.p95.toFixed(1)} ms (${q.total})\n`,
      );
    }
    rounds.push(round);
  }
  replaceSection(values.output, WORKSPACE_TITLE, workspaceSection(rounds, Number(values.repeats)));
}
