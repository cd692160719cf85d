// What a person of the team waits for (docs/performance.md, « The workspace »): each page of the
// workspace over HTTP with a signed-in session, from `leadgate serve` as `npm start` runs it, on a
// journal of N leads, SQLite then PostgreSQL. The navigation's counts and the delivery banner are
// asked on every page (the workspace's preHandler), so they are in each figure. One command:
//   node --import tsx bench/workspace-pages.ts [--leads 100000] [--repeats 40] [--exports 3]
//     [--dialects sqlite,postgres] [--only dashboard,…] [--output bench/RESULTS.md | -]
import { cpus, loadavg, tmpdir } from 'node:os';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { percentile, replaceSection } from './lib/report.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';
import { withServer } from './lib/servers.ts';
import { leadId, seededJournal, type Dialect } from './lib/seeded-journal.ts';
import { signedInMember, timedRequest } from './lib/staff-client.ts';

/** The pages measured, as a person opens them (docs/workspace.md). */
export const PAGES: { key: string; name: string; path: (leads: number) => string }[] = [
  { key: 'a-traiter', name: '« À traiter » (/equipe)', path: () => '/equipe' },
  { key: 'inbox', name: 'Inbox, first page (every lead)', path: () => '/equipe?vue=tous' },
  {
    key: 'filter-assignee',
    name: 'Filter: audits « en cours » of one assignee',
    path: () => '/equipe?vue=tous&type=audit&statut=en-cours&attribue=staff-bruno',
  },
  {
    key: 'filter-sector',
    name: 'Filter: a sector and a channel',
    path: () => '/equipe?vue=tous&secteur=btp&canal=assistant',
  },
  { key: 'search-surname', name: 'Search: a surname', path: () => '/equipe?vue=tous&q=nom2zard' },
  {
    key: 'search-common',
    name: 'Search: a common word',
    path: () => '/equipe?vue=tous&q=google',
  },
  {
    key: 'lead',
    name: 'A lead’s page',
    path: (leads) => `/equipe/prospects/${leadId(Math.floor(leads / 2))}`,
  },
  { key: 'dashboard', name: 'Dashboard', path: () => '/equipe/tableau-de-bord' },
];

export interface PageFigures {
  key: string;
  name: string;
  p50: number;
  p95: number;
  /** The export's time to its first byte (p50, p95); undefined for a page. */
  firstByte?: [number, number];
  bytes: number;
}

export interface PagesRound {
  dialect: Dialect;
  leads: number;
  seedSeconds: number;
  /** The 1-minute load average when the measures started and ended. */
  load: [number, number];
  pages: PageFigures[];
}

function figures(key: string, name: string, totals: number[], bytes: number, firsts?: number[]) {
  const sorted = [...totals].sort((a, b) => a - b);
  const firstSorted = firsts && [...firsts].sort((a, b) => a - b);
  return {
    key,
    name,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    bytes,
    ...(firstSorted && {
      firstByte: [percentile(firstSorted, 50), percentile(firstSorted, 95)] as [number, number],
    }),
  };
}

/**
 * Seeds the journal, starts the server on it, signs a member in and reads each page `repeats`
 * times after 5 warm-ups, the pages in turn (so the machine's load of the minute weighs on all of
 * them alike), then the unfiltered « CSV » export `exports` times.
 */
export async function pagesRound(
  dialect: Dialect,
  leads: number,
  repeats: number,
  exports: number,
  only?: ReadonlySet<string>,
): Promise<PagesRound> {
  const journal = await seededJournal(dialect, leads);
  const root = mkdtempSync(join(tmpdir(), 'leadgate-bench-pages-'));
  try {
    return await withServer(root, SERVE_ARGS, journal.env, async ({ baseUrl }) => {
      const cookie = await signedInMember(journal.store, baseUrl);
      const get = async (path: string, keepBody = true) => {
        const answer = await timedRequest(`${baseUrl}${path}`, { headers: { cookie } }, keepBody);
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
        return answer;
      };
      const pages = PAGES.filter((page) => !only || only.has(page.key));
      const times = new Map(pages.map((page) => [page.key, [] as number[]]));
      const sizes = new Map<string, number>();
      for (const page of pages) for (let i = 0; i < 5; i += 1) await get(page.path(leads));
      const loadBefore = loadavg()[0]!;
      for (let i = 0; i < repeats; i += 1) {
        for (const page of pages) {
          const answer = await get(page.path(leads));
          times.get(page.key)!.push(answer.totalMs);
          sizes.set(page.key, answer.bytes);
        }
      }
      const results = pages.map((page) =>
        figures(page.key, page.name, times.get(page.key)!, sizes.get(page.key)!),
      );
      if (!only || only.has('export')) {
        const totals: number[] = [];
        const firsts: number[] = [];
        let bytes = 0;
        for (let i = 0; i < exports; i += 1) {
          const answer = await get('/equipe/export.csv?vue=tous', false);
          totals.push(answer.totalMs);
          firsts.push(answer.firstByteMs);
          bytes = answer.bytes;
        }
        results.push(figures('export', '« CSV », every lead', totals, bytes, firsts));
      }
      const load: [number, number] = [loadBefore, loadavg()[0]!];
      return { dialect, leads, seedSeconds: journal.seedSeconds, load, pages: results };
    });
  } finally {
    await journal.destroy();
  }
}

export const PAGES_TITLE = '## The workspace’s pages over HTTP';

const ms = (value: number) => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;

export function pagesSection(rounds: PagesRound[], repeats: number, exports: number): string {
  const rows = rounds.flatMap((round) =>
    round.pages.map((page) =>
      page.firstByte
        ? `| ${round.dialect} | ${page.name} (${exports === 1 ? 'once' : `${exports} times`}; first byte p50 / p95: ${ms(page.firstByte[0])} / ${ms(page.firstByte[1])}) | ${(page.bytes / 2 ** 20).toFixed(1)} MB | ${ms(page.p50)} | ${ms(page.p95)} | first byte ${page.firstByte[1] < 50 ? '**met**' : '**not met**'} |`
        : `| ${round.dialect} | ${page.name} | ${(page.bytes / 1024).toFixed(0)} KB | ${ms(page.p50)} | ${ms(page.p95)} | ${page.p95 < 50 ? '**met**' : '**not met**'} |`,
    ),
  );
  const loads = rounds
    .map((r) => `${r.dialect} ${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`)
    .join(', ');
  const busy = rounds.some((r) => Math.max(...r.load) > cpus().length);
  return `${PAGES_TITLE}

\`node --import tsx bench/workspace-pages.ts\`: \`leadgate serve\` started as \`npm start\` starts it, on a
journal of ${rounds[0]?.leads.toLocaleString('en-US') ?? 0} leads (bench/lib/seeded-journal.ts: a year of arrivals, their delivery steps
and first answers); a member signed in through the invitation and sign-in forms; each page read
${repeats} times after 5 warm-ups, the pages in turn, on one kept-alive connection; time from the
request to the last byte, the navigation's counts and the delivery banner included. Target: p95 < 50 ms.
Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; the machine's load average (1 min) at the
start and the end of the measures: ${loads}${busy ? ` (above its ${cpus().length} cores: other jobs shared them)` : ''}.

| Journal | Page | Size | p50 | p95 | < 50 ms |
| --- | --- | ---: | ---: | ---: | --- |
${rows.join('\n')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      leads: { type: 'string', default: '100000' },
      repeats: { type: 'string', default: '40' },
      exports: { type: 'string', default: '3' },
      dialects: { type: 'string', default: 'sqlite,postgres' },
      only: { type: 'string' },
      output: { type: 'string', default: 'bench/RESULTS.md' },
    },
  });
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  const [repeats, exports] = [Number(values.repeats), Number(values.exports)];
  const rounds: PagesRound[] = [];
  for (const dialect of values.dialects.split(',') as Dialect[]) {
    process.stderr.write(`workspace pages on ${dialect}: seeding ${values.leads} leads\n`);
    const round = await pagesRound(dialect, Number(values.leads), repeats, exports, only);
    process.stderr.write(`  load ${round.load.map((l) => l.toFixed(2)).join(' → ')}\n`);
    for (const page of round.pages) {
      const first = page.firstByte ? `, first byte p50 ${ms(page.firstByte[0])}` : '';
      process.stderr.write(`  ${page.name}: p50 ${ms(page.p50)}, p95 ${ms(page.p95)}${first}\n`);
    }
    rounds.push(round);
  }
  if (values.output !== '-') {
    replaceSection(values.output, PAGES_TITLE, pagesSection(rounds, repeats, exports));
  }
}
