// The unfiltered export of a journal of N leads while leads keep arriving (docs/performance.md,
// « Exports »): each export read over HTTP by a signed-in member (« CSV », « CSV pour Excel ») or
// written by `leadgate leads export --format json` (JSON is the command's only), while contact
// requests are POSTed to the server at 20 a second on schedule (an open loop: each latency counts
// from the moment the request was due). Each format gets a fresh server on the same journal, so
// its peak RSS (VmHWM) is that export's. One command:
//   node --import tsx bench/export-under-load.ts [--leads 100000] [--dialects sqlite,postgres]
//     [--formats csv,excel,json] [--output bench/RESULTS.md | -]
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { freshBundle } from '../src/cli/fresh-bundle.js';
import { CONTACT_BODY } from './contact.ts';
import { SITE_ENV } from './lib/processes.ts';
import { percentile, replaceSection } from './lib/report.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';
import { withServer } from './lib/servers.ts';
import { seededJournal, type Dialect } from './lib/seeded-journal.ts';
import { memoryOf, resetPeakMemory, signedInMember, timedRequest } from './lib/staff-client.ts';

type Format = 'csv' | 'excel' | 'json';

export interface ExportRun {
  format: Format;
  /** Rows in the file (a CSV's lines after its header; a JSON array's records). */
  rows: number;
  bytes: number;
  seconds: number;
  /** The POSTs for BASELINE_MS before the export, then during it. */
  baseline: PostFigures;
  posts: PostFigures;
  /** RSS of the server when the export started (signed in, after the POSTs alone). */
  serverBefore: number;
  /** Peak RSS of the server (and of the `leads export` process for JSON), bytes. */
  serverPeak: number;
  commandPeak?: number;
  load: number;
}

export interface ExportRound {
  dialect: Dialect;
  leads: number;
  runs: ExportRun[];
}

const RATE = 20;
const BASELINE_MS = 5000;

interface PostFigures {
  sent: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * POSTs a contact request every 1/RATE s until `stop` is called, each with its own address;
 * resolves with the latencies (from when each was due) once the last one is answered.
 */
function postOnSchedule(baseUrl: string) {
  const latencies: number[] = [];
  let failed = 0;
  let stopped = false;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const done = (async () => {
    for (let k = 0; !stopped; k += 1) {
      const due = start + (k * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (stopped) break;
      const body = CONTACT_BODY.replace('[<id>]', `export-${process.pid}-${k}-${Date.now()}`);
      const request = timedRequest(`${baseUrl}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      }).then(
        (answer) => {
          if (answer.status !== 200) failed += 1;
          latencies.push(performance.now() - due);
        },
        () => {
          failed += 1;
        },
      );
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await Promise.all(inFlight);
  })();
  return {
    async stop(): Promise<PostFigures> {
      stopped = true;
      await done;
      const sorted = latencies.sort((a, b) => a - b);
      return {
        sent: sorted.length + failed,
        failed,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1) ?? 0,
      };
    },
  };
}

/**
 * Counts the rows of an export as its chunks come: a CSV's line ends outside quotes (a message may
 * hold line breaks), less its header; the JSON array's records, one `{` indented by two each.
 */
function rowCounter(format: Format) {
  let count = 0;
  let quoted = false;
  let tail = '';
  return {
    add(chunk: string) {
      if (format === 'json') {
        const text = tail + chunk;
        for (let at = text.indexOf('\n  {'); at !== -1; at = text.indexOf('\n  {', at + 1)) {
          count += 1;
        }
        tail = text.slice(-3);
        return;
      }
      for (let at = 0; at < chunk.length; at += 1) {
        const code = chunk.charCodeAt(at);
        if (code === 34) quoted = !quoted;
        else if (code === 10 && !quoted) count += 1;
      }
    },
    rows: () => (format === 'json' ? count : count - 1),
  };
}

/** `leadgate leads export --format json` on the server's journal; its output counted, not kept. */
async function commandExport(env: Record<string, string>) {
  const child = spawn(
    process.execPath,
    ['bin/leadgate.js', 'leads', 'export', '--format', 'json'],
    {
      env: { ...process.env, ...SITE_ENV, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const counter = rowCounter('json');
  let bytes = 0;
  let peak = 0;
  const watch = setInterval(() => {
    memoryOf(child.pid!).then(
      (memory) => (peak = Math.max(peak, memory.peak)),
      () => undefined,
    );
  }, 50);
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    bytes += Buffer.byteLength(chunk);
    counter.add(chunk);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(watch);
  if (code !== 0) throw new Error(`leads export exited ${code}`);
  return { rows: counter.rows(), bytes, peak };
}

async function exportRun(
  format: Format,
  env: Record<string, string>,
  store: Parameters<typeof signedInMember>[0],
): Promise<ExportRun> {
  const root = mkdtempSync(join(tmpdir(), 'leadgate-bench-export-'));
  const serverEnv = { ...env, RATE_LIMIT_PER_MINUTE: '0' };
  return withServer(root, SERVE_ARGS, serverEnv, async ({ baseUrl, pid }) => {
    // JSON is the command's: its server signs nobody in, so its RSS is the server's without scrypt.
    const cookie = format === 'json' ? '' : await signedInMember(store, baseUrl);
    // The same POSTs with no export beside them: what the machine's load alone gives.
    const alone = postOnSchedule(baseUrl);
    await new Promise((resolve) => setTimeout(resolve, BASELINE_MS));
    const baseline = await alone.stop();
    await resetPeakMemory(pid);
    const before = (await memoryOf(pid)).now;
    const load = loadavg()[0]!;
    const start = performance.now();
    const posts = postOnSchedule(baseUrl);
    let rows: number;
    let bytes: number;
    let commandPeak: number | undefined;
    if (format === 'json') {
      ({ rows, bytes, peak: commandPeak } = await commandExport(env));
    } else {
      const counter = rowCounter(format);
      const query = format === 'excel' ? '?vue=tous&format=excel' : '?vue=tous';
      const answer = await new Promise<{ bytes: number }>((resolve, reject) => {
        get(`${baseUrl}/equipe/export.csv${query}`, { headers: { cookie } }, (res) => {
          if (res.statusCode !== 200) reject(new Error(`export: ${res.statusCode}`));
          let size = 0;
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            size += Buffer.byteLength(chunk);
            counter.add(chunk);
          });
          res.once('end', () => resolve({ bytes: size }));
          res.once('error', reject);
        }).once('error', reject);
      });
      rows = counter.rows();
      bytes = answer.bytes;
    }
    const seconds = (performance.now() - start) / 1000;
    const figures = await posts.stop();
    const serverPeak = (await memoryOf(pid)).peak;
    return {
      format,
      rows,
      bytes,
      seconds,
      baseline,
      posts: figures,
      serverBefore: before,
      serverPeak,
      commandPeak,
      load,
    };
  });
}

export async function exportRound(
  dialect: Dialect,
  leads: number,
  formats: readonly Format[],
): Promise<ExportRound> {
  const journal = await seededJournal(dialect, leads);
  try {
    const runs: ExportRun[] = [];
    for (const format of formats) runs.push(await exportRun(format, journal.env, journal.store));
    return { dialect, leads, runs };
  } finally {
    await journal.destroy();
  }
}

export const EXPORT_TITLE = '## Exporting every lead while leads arrive';

const NAMES: Record<Format, string> = {
  csv: '« CSV » (HTTP)',
  excel: '« CSV pour Excel » (HTTP)',
  json: 'JSON (`leads export --format json`)',
};

const postFigures = (posts: PostFigures) =>
  `${posts.p50.toFixed(1)} / ${posts.p99.toFixed(1)} / ${posts.max.toFixed(0)} ms`;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export function exportSection(rounds: ExportRound[]): string {
  const rows = rounds.flatMap((round) =>
    round.runs.map(
      (run) =>
        `| ${round.dialect} | ${NAMES[run.format]} | ${run.rows.toLocaleString('en-US')} | ${mb(run.bytes)} | ${run.seconds.toFixed(1)} s | ${run.posts.sent} (${run.posts.failed} failed) | ${postFigures(run.posts)} | ${postFigures(run.baseline)} | ${mb(run.serverBefore)} → ${mb(run.serverPeak)}${run.commandPeak ? ` (command ${mb(run.commandPeak)})` : ''} | ${run.load.toFixed(1)} |`,
    ),
  );
  return `${EXPORT_TITLE}

\`node --import tsx bench/export-under-load.ts\`: a journal of ${rounds[0]?.leads.toLocaleString('en-US') ?? 0} leads
(bench/lib/seeded-journal.ts), each format exported unfiltered by a fresh \`leadgate serve\` (as \`npm start\`
runs it, RATE_LIMIT_PER_MINUTE=0) while contact requests are POSTed to it at ${RATE} a second on
schedule (latency from when each was due). « CSV » and « CSV pour Excel » are read over HTTP by a
signed-in member (\`/equipe/export.csv?vue=tous\`); JSON is written by \`leads export\` in its own process
(the workspace has no JSON link), beside the same server. RSS: the server's VmRSS when the export started and its VmHWM
during it (reset after the sign-in, whose scrypt takes 128 MB for a moment; and the command's). Targets: POST p99 < 50 ms, server peak RSS < 150 MB, every row exported.
The server ran ${freshBundle() && process.env.LEADGATE_BUNDLE !== '0' ? 'the CLI bundle' : 'the sources through tsx (no fresh bundle): its RSS holds the compiler, so the growth during the export is the figure to read'}.
Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; load: the 1-minute load average when each export started.

| Journal | Export | Rows | Size | Time | POSTs during | POST p50 / p99 / max | the same, no export (5 s before) | RSS before → peak | Load |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      leads: { type: 'string', default: '100000' },
      dialects: { type: 'string', default: 'sqlite,postgres' },
      formats: { type: 'string', default: 'csv,excel,json' },
      output: { type: 'string', default: 'bench/RESULTS.md' },
    },
  });
  const rounds: ExportRound[] = [];
  for (const dialect of values.dialects.split(',') as Dialect[]) {
    process.stderr.write(`export on ${dialect}: seeding ${values.leads} leads\n`);
    const round = await exportRound(
      dialect,
      Number(values.leads),
      values.formats.split(',') as Format[],
    );
    for (const run of round.runs) {
      process.stderr.write(
        `  ${run.format}: ${run.rows} rows in ${run.seconds.toFixed(1)} s, POST ${postFigures(run.posts)} (${run.posts.sent} sent, ${run.posts.failed} failed; alone ${postFigures(run.baseline)}), server ${mb(run.serverBefore)} → peak ${mb(run.serverPeak)}${run.commandPeak ? `, command peak ${mb(run.commandPeak)}` : ''}, load ${run.load.toFixed(1)}\n`,
      );
    }
    rounds.push(round);
  }
  if (values.output !== '-') replaceSection(values.output, EXPORT_TITLE, exportSection(rounds));
}
