// The workspace's inbox over 100,000 leads (docs/workspace.md, "Performances"): its first page, a
// filter and a search, on SQLite and on PostgreSQL. Part of `npm run bench` (--only workspace); run
// alone, it rewrites only its own section of bench/RESULTS.md:
//   node --import tsx bench/workspace.ts [--leads 100000] [--repeats 200] [--dialects sqlite,postgres]
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Kysely, sql } from 'kysely';
import { loadConfig } from '../src/kernel/config.ts';
import type { InboxQuery } from '../src/features/inbox/lead-work.ts';
import type { Store } from '../src/kernel/journal/store.ts';
import { createStore } from '../src/wiring/create-store.ts';
import { postgresDatabase } from '../src/kernel/journal/postgres/postgres-database.ts';
import SQLite from 'better-sqlite3';
import { SqliteDialect } from 'kysely';
import type { Database } from '../src/kernel/journal/tables.ts';
import { startPostgresCluster } from '../test/helpers/postgres-cluster.ts';

export interface WorkspaceQueryResult {
  name: string;
  p50: number;
  p95: number;
  rows: number;
  total: number;
}

export interface WorkspaceRound {
  dialect: 'sqlite' | 'postgres';
  leads: number;
  seedSeconds: number;
  /** The machine's 1-minute load average when the measures started and ended (others' jobs). */
  load: [number, number];
  queries: WorkspaceQueryResult[];
}

const FIRST = ['Marie', 'Léa', 'Paul', 'Inès', 'Hugo', 'Chloé', 'Louis', 'Emma', 'Jules', 'Zoé'];
const LAST = Array.from({ length: 400 }, (_, i) => `Nom${i.toString(36)}ard`);
const MESSAGES = [
  'Je voudrais apparaître dans les résultats de mon quartier.',
  'Notre site est lent et ne ressort pas sur Google.',
  'Nous ouvrons une deuxième boutique et cherchons de la visibilité.',
  'Pouvez-vous refaire notre fiche d’établissement ?',
];
const SECTORS = ['avocats', 'boutiques', 'btp'];
const CHANNELS = ['form', 'form', 'form', 'api', 'mcp', 'agent'];
const STAFF = ['staff-anne', 'staff-bruno', 'staff-chloe', 'staff-david'];

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

function leadRow(i: number, now: number) {
  const kind = ['contact', 'audit', 'subscribe'][i % 3]!;
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const email = `${first.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()}.${last.toLowerCase()}.${i}@example.fr`;
  const message = MESSAGES[i % MESSAGES.length]!;
  const data =
    kind === 'contact'
      ? { PRENOM: first, NOM: last, EMAIL: email, SERVICE: 'Référencement local', DEMANDE: message }
      : kind === 'audit'
        ? {
            email,
            firstName: first,
            lastName: last,
            sector: SECTORS[Math.floor(i / 3) % SECTORS.length],
            formData: { 'Combien de chantiers par an ?': message },
          }
        : { email, firstName: first };
  // One lead every ~5 minutes over a year, the newest last.
  const receivedAt = new Date(now - (100_000 - i) * 315_000).toISOString();
  const age = 100_000 - i;
  const work =
    age < 200
      ? 'nouveau'
      : age < 2_000
        ? ['nouveau', 'en-cours'][i % 2]!
        : ['traite', 'archive', 'en-cours'][i % 3]!;
  return {
    id: `bench-${String(i).padStart(6, '0')}`,
    kind,
    email,
    payload: JSON.stringify(data),
    received_at: receivedAt,
    status: i % 97 === 0 ? 'spam' : i % 53 === 0 ? 'dead' : 'delivered',
    attempts: 1,
    updated_at: receivedAt,
    consent_channel: CHANNELS[i % CHANNELS.length]!,
    work_status: work,
    assignee: work === 'nouveau' ? null : STAFF[i % STAFF.length]!,
    started_at: work === 'nouveau' ? null : receivedAt,
    read_at: work === 'nouveau' ? null : receivedAt,
  };
}

async function seed(db: Kysely<Database>, leads: number): Promise<void> {
  const now = Date.now();
  for (let from = 0; from < leads; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, leads - from) }, (_, k) =>
      leadRow(from + k, now),
    );
    await db.transaction().execute((trx) => trx.insertInto('leads').values(rows).execute());
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

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
  dialect: 'sqlite' | 'postgres',
  leads: number,
  repeats: number,
): Promise<WorkspaceRound> {
  const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-bench-ws-'));
  const cluster = dialect === 'postgres' ? await startPostgresCluster() : undefined;
  const config = loadConfig({ DATA_DIR: dataDir, ...(cluster && { DATABASE_URL: cluster.url() }) });
  const store = await createStore(config);
  const db = cluster
    ? postgresDatabase(cluster.url(), { ...config.database, statementTimeoutMs: 0 })
    : new Kysely<Database>({
        dialect: new SqliteDialect({ database: new SQLite(join(dataDir, 'leadgate.sqlite')) }),
      });
  try {
    const start = performance.now();
    await seed(db, leads);
    if (cluster) await sql`ANALYZE`.execute(db);
    const seedSeconds = (performance.now() - start) / 1000;
    const loadBefore = loadavg()[0]!;
    const queries = await measure(store, repeats);
    return { dialect, leads, seedSeconds, load: [loadBefore, loadavg()[0]!], queries };
  } finally {
    await db.destroy();
    await store.close();
    await cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
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

/** Replaces this section of a results file (or appends it), leaving the other sections alone. */
export function writeSection(file: string, section: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const start = text.indexOf(WORKSPACE_TITLE);
  if (start === -1) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}\n`);
    return;
  }
  const next = text.indexOf('\n## ', start + WORKSPACE_TITLE.length);
  const rest = next === -1 ? '' : text.slice(next);
  writeFileSync(file, `${text.slice(0, start)}${section}\n${rest}`);
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
  writeSection(values.output, workspaceSection(rounds, Number(values.repeats)));
}
