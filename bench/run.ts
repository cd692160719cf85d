// Runs the benchmarks and writes bench/RESULTS.md. Not part of `npm test` nor CI (bench/README.md).
// Usage: npm run bench -- [--rounds 5] [--seconds 10] [--starts 10] [--requests 100000]
//   [--only build,startup,contact,steady,nodes,site,flood,memory,mail,delivery,workspace]
//   [--output bench/RESULTS.md] [--against <git ref>]
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freshBundle } from '../src/cli/fresh-bundle.js';
import { CONNECTIONS, contactRound, type ContactRound } from './contact.ts';
import { deliveryRound, deliverySection } from './delivery.ts';
import { floodRound, type FloodRound } from './flood.ts';
import {
  LOAD_HEADER,
  loadRow,
  machine,
  median,
  medians,
  mib,
  ms,
  percent,
  ratios,
  round0,
  verdict,
} from './lib/report.ts';
import { dispatchRound, type DispatchRound } from './dispatch-alone.ts';
import { journalRound, type JournalRound } from './journal-accept.ts';
import { logLinesRound, type LogLinesRound } from './log-lines.ts';
import { mailComposeRound, type MailComposeRound } from './mail-compose.ts';
import { memoryRound } from './memory.ts';
import { ACCEPT, PAGE, siteRound, type SiteRound } from './site.ts';
import { steadyRateRound, type SteadyRateRound } from './steady-rate.ts';
import { nodesLatencyRound, type NodesLatency } from './nodes-latency.ts';
import { buildOnce, coldStarts, firstStarts } from './startup.ts';
import { workspaceRound, workspaceSection, type WorkspaceRound } from './workspace.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';
import {
  againstRound,
  againstSection,
  prepareRef,
  thisCheckout,
  type AgainstRound,
} from './against.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '10' },
    starts: { type: 'string', default: '10' },
    requests: { type: 'string', default: '100000' },
    only: { type: 'string' },
    output: { type: 'string', default: 'bench/RESULTS.md' },
    against: { type: 'string' },
  },
});
// With --against, the comparison alone unless --only names more (bench/README.md).
const everything = 'build,startup,contact,steady,nodes,site,flood,memory,mail,delivery,workspace';
const rounds = Number(values.rounds);
const round1 = (value: number) => Math.round(value * 10) / 10;
const seconds = Number(values.seconds);
const only = new Set((values.only ?? (values.against ? 'against' : everything)).split(','));
if (values.against) only.add('against');
const root = join(process.cwd(), 'bench', 'out');
// An earlier run's files are set aside now and deleted only after the last measure: deleting
// thousands of files makes ext4 create new ones far slower for a while (bench/README.md).
const previous = existsSync(root) ? `${root}.old-${Date.now()}` : undefined;
if (previous) renameSync(root, previous);
const distDir = join(root, 'dist');
mkdirSync(root, { recursive: true });
const log = (line: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

const sections: string[] = [];
const retried: string[] = [];
const raw: Record<string, unknown> = {};

/** A round whose server failed under another job's load is run again once, and the results say so. */
async function retryOnce<T>(name: string, round: () => Promise<T>): Promise<T> {
  try {
    return await round();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    log(`${name} round failed, run again: ${reason}`);
    retried.push(`${name}: ${reason}`);
    return round();
  }
}

async function measureRounds<T>(name: string, round: () => Promise<T>, describe: (r: T) => string) {
  const results: T[] = [];
  for (let index = 0; index < rounds; index++) {
    results.push(await retryOnce(name, round));
    log(`${name}: ${describe(results.at(-1)!)}`);
  }
  raw[name] = results;
  return results;
}

// The build comes first: every server below serves the dist/ it writes.
const servers = [
  'build',
  'startup',
  'contact',
  'steady',
  'site',
  'flood',
  'memory',
  'delivery',
  'against',
].some((n) => only.has(n));
const builds: number[] = [];
for (let round = 0; round < (only.has('build') ? rounds : servers ? 1 : 0); round++) {
  builds.push(await buildOnce(distDir));
  log(`build ${ms(Math.round(builds.at(-1)!))}`);
}
if (only.has('build')) {
  raw.buildMs = builds;
  sections.push(`## Site build time

\`node bin/leadgate.js build\` as a user runs it, process start included, into an empty directory.
Target < 3 s: ${verdict(median(builds) < 3000)}.

| Median | Each run |
| ---: | --- |
| ${ms(Math.round(median(builds)))} | ${builds.map((b) => ms(Math.round(b))).join(', ')} |`);
}

if (only.has('startup')) {
  // The bundle `leadgate build` wrote is used only while no source changed since: rebuild if needed.
  for (let attempt = 0; attempt < 3 && !freshBundle(); attempt++) await buildOnce(distDir);
  const starts = Number(values.starts);
  const first = await firstStarts(root, distDir, starts);
  const later = await coldStarts(root, distDir, starts);
  const tsx = await coldStarts(root, distDir, starts, { LEADGATE_BUNDLE: '0' });
  raw.startMs = { first, later, tsx };
  const row = (name: string, all: number[], target: string) =>
    `| ${name} | ${ms(Math.round(median(all)))} | ${ms(Math.round(Math.min(...all)))} | ${ms(Math.round(Math.max(...all)))} | ${target} |`;
  sections.push(`## Start to first answer

From \`spawn(node ${SERVE_ARGS.join(' ')})\` (\`npm start\`) to the first HTTP answer on \`/healthz\`
(polled every 2 ms on fresh connections), ${starts} starts each, with dist/ and the CLI bundle built
(what \`npm ci\` leaves: its prepare script runs \`leadgate build\`). A first start finds no code cache
for serve's flags (each is removed before it); a later start finds the one an earlier start wrote
(src/cli/run-bundle.js).

| Start | Median | Fastest | Slowest | Target |
| --- | ---: | ---: | ---: | --- |
${row('first start after `npm ci` (the journal and the code cache are created)', first, `< 1 s: ${verdict(median(first) < 1000)}`)}
${row('later starts (existing journal and code cache)', later, `< 500 ms: ${verdict(median(later) < 500)}`)}
${row('tsx, sources compiled on the fly (`LEADGATE_BUNDLE=0`, or a source changed since the build)', tsx, 'diagnostic')}`);
}

if (only.has('contact')) {
  const results = await measureRounds<ContactRound>(
    'contact',
    () => contactRound(root, distDir, seconds),
    (r) =>
      `${Math.round(r.leadgate.requestsPerSecond)} vs bare ${Math.round(r.bare.requestsPerSecond)} req/s, p99 ${r.leadgate.p99} ms`,
  );
  const ofBare = (server: keyof ContactRound) =>
    ratios(
      results.map((r) => r[server]),
      results.map((r) => r.bare),
    );
  const [ratio, noJournal, nodeFloor] = [
    ofBare('leadgate'),
    ofBare('noJournal'),
    ofBare('nodeFloor'),
  ];
  const p99 = medians(results.map((r) => r.leadgate)).p99;
  const rows: [string, keyof ContactRound][] = [
    ['leadgate', 'leadgate'],
    ['leadgate, provider doing nothing (diagnostic)', 'noopProvider'],
    ['leadgate, no destination: the accept path alone (diagnostic)', 'noDestination'],
    ['leadgate, no journal write and no log line (diagnostic)', 'noJournal'],
    ['bare Fastify', 'bare'],
    ['bare node:http, same JSON parsed (diagnostic)', 'nodeFloor'],
  ];
  sections.push(`## POST /api/contact (accept path) against a bare Fastify route

${CONNECTIONS} connections, ${seconds} s per measure after a 3 s warm-up, ${rounds} rounds; each round measures
the servers one after the other. leadgate: \`node bin/leadgate.js serve\` as configured by default
(outbox provider, SQLite journal: every lead on disk before its answer, info logs), with
RATE_LIMIT_PER_MINUTE=0; its background delivery runs during the measure. Diagnostics: the same app
with a provider that does nothing, and with no destination (no step, so no delivery beside the load:
the accept path alone, as when \`leadgate dispatch\` delivers elsewhere), and with a journal that
acknowledges each lead without writing it and no log line per request (bench/no-journal-server.ts:
what the accept path costs apart from its durability and its logs, the floor of any journal or
logging design). Bare: Fastify, one route that parses the same JSON and answers 200; below it,
Node.js's HTTP layer alone reading and parsing the same body (bench/node-post-floor-server.ts).
Each lead has a distinct address. Where the time goes: docs/performance.md.

Ratio (median of the rounds' ratios): **${percent(ratio.median)}** of the bare route (each round: ${ratio.each}).
Target ≥ 60 %: ${verdict(ratio.median >= 0.6)}. p99 of leadgate: **${ms(p99)}**. Target < 25 ms: ${verdict(p99 < 25)}.
Floors (diagnostic): with no journal write and no log line, the accept path did
${percent(noJournal.median)} of the bare route (each round: ${noJournal.each}); Node.js's HTTP layer
alone did ${percent(nodeFloor.median)} of it (each round: ${nodeFloor.each}).

${LOAD_HEADER}
${rows
  .map(([name, server]) =>
    loadRow(
      name,
      results.map((r) => r[server]),
    ),
  )
  .join('\n')}`);
}

if (only.has('steady')) {
  const rate = 300;
  const steadySeconds = 2 * seconds;
  const results = await measureRounds<SteadyRateRound>(
    'steady',
    () => steadyRateRound(root, distDir, rate, steadySeconds),
    (r) => `p50 ${ms(round1(r.p50))}, p99 ${ms(round1(r.p99))}, ${r.failures} failed`,
  );
  const p99 = median(results.map((r) => r.p99));
  sections.push(`## Accepting while delivering: ${rate} contact requests a second

\`node bin/leadgate.js serve\` as configured by default (outbox, SQLite journal, info logs),
RATE_LIMIT_PER_MINUTE=0: ${rate} requests a second for ${steadySeconds} s after a 3 s warm-up, sent on
schedule whatever the answers (an open loop, bench/steady-rate.ts: each latency counts from the
moment the request was due), while the dispatcher writes each lead's two e-mails beside them.
${rounds} rounds.

p99 (median of the rounds): **${ms(round1(p99))}**. Target < 25 ms: ${verdict(p99 < 25)}.

| Round | p50 | p99 | max | failed | server CPU µs/request (deliveries included) | e-mails written meanwhile |
| --- | ---: | ---: | ---: | ---: | ---: | ---: |
${results
  .map(
    (r, index) =>
      `| ${index + 1} | ${ms(round1(r.p50))} | ${ms(round1(r.p99))} | ${ms(Math.round(r.max))} | ${r.failures} | ${round0(r.cpuMicrosPerRequest)} | ${round0(r.mailsWritten)} |`,
  )
  .join('\n')}`);
}

if (only.has('nodes')) {
  const rate = 20;
  const nodesSeconds = 2 * seconds;
  const results = await measureRounds<NodesLatency[]>(
    'nodes',
    () => nodesLatencyRound(root, distDir, rate, nodesSeconds),
    (r) =>
      r
        .map((each) => `${each.journal} p50 ${ms(round1(each.p50))} p99 ${ms(round1(each.p99))}`)
        .join('; '),
  );
  const journals = results[0]!.map((each) => each.journal);
  sections.push(`## One node on SQLite, two on PostgreSQL

The same contact requests at a person's pace, ${rate} a second for ${nodesSeconds} s after a 2 s warm-up
(an open loop, bench/nodes-latency.ts), answered by one \`leadgate serve\` on its SQLite journal,
then by two on one PostgreSQL database taking the requests in turn (a private cluster with
PostgreSQL's default durability: fsync and synchronous commits, as SQLite's journal syncs before
each answer). Both deliver to their outbox beside the load. ${rounds} rounds; p50 / p99 / max.

| Journal | ${results.map((_, index) => `round ${index + 1}`).join(' | ')} |
| --- | ${results.map(() => '---:').join(' | ')} |
${journals
  .map(
    (journal, row) =>
      `| ${journal} | ${results
        .map((round) => {
          const r = round[row]!;
          return `${ms(round1(r.p50))} / ${ms(round1(r.p99))} / ${ms(Math.round(r.max))}${r.failures ? ` (${r.failures} failed)` : ''}`;
        })
        .join(' | ')} |`,
  )
  .join('\n')}`);
}

if (only.has('site')) {
  const results = await measureRounds<SiteRound>(
    'site',
    () => siteRound(root, distDir, seconds),
    (r) =>
      `html ${Math.round(r.html.leadgate.requestsPerSecond)} vs ${Math.round(r.html.nginx.requestsPerSecond)} (node:http ${Math.round(r.html.nodeFloor.requestsPerSecond)}), markdown ${Math.round(r.markdown.leadgate.requestsPerSecond)} vs ${Math.round(r.markdown.nginx.requestsPerSecond)} (node:http ${Math.round(r.markdown.nodeFloor.requestsPerSecond)})`,
  );
  const parts = (['html', 'markdown'] as const).map((variant) => {
    const ratio = ratios(
      results.map((r) => r[variant].leadgate),
      results.map((r) => r[variant].nginx),
    );
    const floor = ratios(
      results.map((r) => r[variant].nodeFloor),
      results.map((r) => r[variant].nginx),
    );
    const ofFloor = ratios(
      results.map((r) => r[variant].leadgate),
      results.map((r) => r[variant].nodeFloor),
    );
    return `### ${variant === 'html' ? 'HTML' : 'Markdown'} (\`Accept: ${ACCEPT[variant]}\`)

Ratio: **${percent(ratio.median)}** of nginx (each round: ${ratio.each}). Target ≥ 50 %: ${verdict(ratio.median >= 0.5)}.
Node's own floor (diagnostic): a bare \`node:http\` server answering the same bytes and headers did
${percent(floor.median)} of nginx (each round: ${floor.each}); leadgate did ${percent(ofFloor.median)} of it.

${LOAD_HEADER}
${loadRow(
  'leadgate',
  results.map((r) => r[variant].leadgate),
)}
${loadRow(
  'nginx',
  results.map((r) => r[variant].nginx),
)}
${loadRow(
  'bare node:http, same bytes (diagnostic)',
  results.map((r) => r[variant].nodeFloor),
)}`;
  });
  sections.push(`## GET ${PAGE} with content negotiation against nginx

${CONNECTIONS} connections, ${seconds} s per measure after a 2 s warm-up, ${rounds} rounds. leadgate:
\`node bin/leadgate.js serve\` (dist/ held in memory, answered before Fastify for exact paths). nginx:
one worker (one core, like one Node.js process), the same dist/ and the same negotiation
(bench/nginx.conf.template), access log on. No \`Accept-Encoding\`: both send the same bytes
(checked before each round). nginx's CPU column near 1.00 shows it was saturated, so the ratio
compares servers, not the load generator. Diagnostic: bench/node-floor-server.ts, Node.js's HTTP
layer alone answering leadgate's bytes and headers, the most a Node.js server can do here.

${parts.join('\n\n')}`);
}

if (only.has('flood')) {
  const results = await measureRounds<FloodRound>(
    'flood',
    () => floodRound(root, distDir, seconds),
    (r) =>
      `429s ${Math.round(r.flood.requestsPerSecond)} vs bare ${Math.round(r.bare.requestsPerSecond)} req/s`,
  );
  const ratio = ratios(
    results.map((r) => r.flood),
    results.map((r) => r.bare),
  );
  sections.push(`## A flood past the rate limit against a bare Fastify route

One client sends POST /api/contact past its limit (RATE_LIMIT_PER_MINUTE=30): after the first 30,
every answer is 429 \`rate_limited\` (checked after the run). ${CONNECTIONS} connections, ${seconds} s after a
2 s warm-up, ${rounds} rounds. Bare: the Fastify route answering 200 to the same body.

Ratio: **${percent(ratio.median)}** of the bare route (each round: ${ratio.each}). Target ≥ 50 %: ${verdict(ratio.median >= 0.5)}.

${LOAD_HEADER}
${loadRow(
  'leadgate, every answer 429',
  results.map((r) => r.flood),
)}
${loadRow(
  'bare Fastify',
  results.map((r) => r.bare),
)}`);
}

if (only.has('memory')) {
  const requests = Number(values.requests);
  const result = await retryOnce('memory', () => memoryRound(root, distDir, requests));
  raw.memory = result;
  log(`memory ${mib(result.afterFirst)} then ${mib(result.afterSecond)}`);
  const growth = result.afterSecond - result.afterFirst;
  sections.push(`## Memory under load

RSS of \`leadgate serve\` (default configuration, RATE_LIMIT_PER_MINUTE=0) after ${requests.toLocaleString('en-US')} accepted leads,
then after ${requests.toLocaleString('en-US')} more; every lead a new address with its own Idempotency-Key.

| After | RSS | Target |
| --- | ---: | --- |
| ${requests.toLocaleString('en-US')} requests | ${mib(result.afterFirst)} | < 150 MB: ${verdict(result.afterFirst < 150 * 2 ** 20)} |
| ${(2 * requests).toLocaleString('en-US')} requests | ${mib(result.afterSecond)} | flat (growth ${mib(growth)}): ${verdict(growth < 10 * 2 ** 20)} |`);
}

if (only.has('mail')) {
  const messages = 20_000;
  const results = await measureRounds<MailComposeRound>(
    'mail',
    () => mailComposeRound(messages),
    (r) =>
      `${r.leadgate.cpuMicros.toFixed(1)} vs nodemailer ${r.nodemailer.cpuMicros.toFixed(1)} µs of CPU per message`,
  );
  const cost = (pick: (r: MailComposeRound) => number) => median(results.map(pick));
  const leadgate = cost((r) => r.leadgate.cpuMicros);
  const speedups = results.map((r) => r.nodemailer.cpuMicros / r.leadgate.cpuMicros);
  const micros = (value: number) => `${value.toFixed(1)} µs`;
  sections.push(`## Composing an e-mail: leadgate against nodemailer

The benchmark's contact lead's two e-mails (confirmation, notification: text and HTML, UTF-8),
composed in one process, one after the other: ${messages.toLocaleString('en-US')} messages by leadgate's composer
(src/kernel/mail/mime-message.ts), ${(messages / 10).toLocaleString('en-US')} by nodemailer's stream transport as the outbox used it
before (CRLF, whole message buffered), after a warm-up, ${rounds} rounds. CPU time of the process
per message (user + system), and wall time.

leadgate: **${micros(leadgate)}** of CPU per message. Target < 100 µs: ${verdict(leadgate < 100)}.
nodemailer takes **${median(speedups).toFixed(0)} ×** as long (median of the rounds' ratios; each round: ${speedups.map((x) => `${x.toFixed(0)} ×`).join(', ')}).

| Composer | CPU per message | Wall time per message |
| --- | ---: | ---: |
| leadgate (src/kernel/mail/mime-message.ts) | ${micros(leadgate)} | ${micros(cost((r) => r.leadgate.wallMicros))} |
| nodemailer, stream transport | ${micros(cost((r) => r.nodemailer.cpuMicros))} | ${micros(cost((r) => r.nodemailer.wallMicros))} |`);
}

if (only.has('delivery')) {
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');
  const result = await retryOnce('delivery', () => deliveryRound(root, distDir, seconds, log));
  raw.delivery = result;
  sections.push(deliverySection(result, seconds, load));
}

if (only.has('journal')) {
  const accepts = 5_000;
  const results = await measureRounds<JournalRound>(
    'journal',
    () => journalRound(root, accepts),
    (r) =>
      `${r.cpuMicrosPerAccept.toFixed(0)} µs of CPU per accept, ${Math.round(r.acceptsPerSecond)} accepts/s`,
  );
  const of = (pick: (r: JournalRound) => number) => median(results.map(pick));
  sections.push(`## The journal alone (diagnostic)

The accept path's journal transaction (lead, idempotency keys, known address, two delivery steps) in
the benchmark's own process, on a new SQLite journal (WAL, group commit: each accept resolves once
on disk): ${accepts.toLocaleString('en-US')} contact leads, 50 concurrent accepts at a time, ${rounds} rounds, medians.
Where it goes: docs/performance.md.

| CPU per accept | Accepts/s | Written per accept |
| ---: | ---: | ---: |
| ${of((r) => r.cpuMicrosPerAccept).toFixed(0)} µs | ${round0(of((r) => r.acceptsPerSecond))} | ${of((r) => r.kibWrittenPerAccept).toFixed(1)} KiB |`);
}

if (only.has('log')) {
  const leads = 50_000;
  const results = await measureRounds<LogLinesRound>(
    'log',
    async () => logLinesRound(leads),
    (r) => `${r.cpuMicrosPerLead.toFixed(1)} µs of CPU per lead's lines`,
  );
  sections.push(`## A lead's log lines (diagnostic)

The three lines a contact lead writes at \`info\` in \`leadgate serve\` (the request's, two delivered
e-mails'), each with its child logger, through the server's logger options (masking) to /dev/null:
${leads.toLocaleString('en-US')} leads in the benchmark's own process, ${rounds} rounds, median.

| CPU per lead (three lines) |
| ---: |
| ${median(results.map((r) => r.cpuMicrosPerLead)).toFixed(1)} µs |`);
}

if (only.has('dispatch')) {
  const leads = 5_000;
  const results = await measureRounds<DispatchRound>(
    'dispatch',
    () => dispatchRound(root, leads),
    (r) =>
      `${r.cpuMicrosPerLead.toFixed(0)} µs of CPU per lead, ${Math.round(r.leadsPerSecond)} leads/s`,
  );
  const of = (pick: (r: DispatchRound) => number) => median(results.map(pick));
  sections.push(`## The dispatcher alone (diagnostic)

The delivery path without the accept path beside it: ${leads.toLocaleString('en-US')} contact leads
journaled first (SQLite), then delivered by the dispatcher \`leadgate serve\` runs (outbox: two
e-mails composed and written per lead), in the benchmark's own process, ${rounds} rounds, medians.
Where it goes: docs/performance.md.

| CPU per lead | of which in the kernel | Delivered leads/s |
| ---: | ---: | ---: |
| ${of((r) => r.cpuMicrosPerLead).toFixed(0)} µs | ${of((r) => r.systemMicrosPerLead).toFixed(0)} µs | ${round0(of((r) => r.leadsPerSecond))} |`);
}

if (values.against) {
  const ref = await prepareRef(values.against, log);
  const today = thisCheckout(distDir);
  const results: AgainstRound[] = [];
  for (let index = 0; index < rounds; index++) {
    results.push(await retryOnce('against', () => againstRound(root, today, ref, index, seconds)));
    const r = results.at(-1)!;
    log(
      `against: contact ${Math.round(r.today.accept.requestsPerSecond)} vs ${Math.round(r.ref.accept.requestsPerSecond)} req/s, ${Math.round(r.today.accept.cpuMicrosPerRequest)} vs ${Math.round(r.ref.accept.cpuMicrosPerRequest)} µs`,
    );
  }
  raw.against = results;
  sections.push(againstSection(ref, results, seconds));
}

if (only.has('workspace')) {
  // docs/workspace.md, "Performances": the inbox over 100,000 leads, on each journal.
  const [leads, repeats] = [100_000, 200];
  const results: WorkspaceRound[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    results.push(
      await retryOnce(`workspace ${dialect}`, () => workspaceRound(dialect, leads, repeats)),
    );
    log(
      `workspace ${dialect}: ${results
        .at(-1)!
        .queries.map((q) => `${ms(q.p95)}`)
        .join(', ')} (p95)`,
    );
  }
  raw.workspace = results;
  sections.push(workspaceSection(results, repeats));
}

writeFileSync(join(root, 'results.json'), JSON.stringify(raw, null, 2));
writeFileSync(
  values.output,
  `# Benchmark results

Written by \`npm run bench\` (bench/run.ts); how to run them and what each measures: bench/README.md.

${machine()}

${sections.join('\n\n')}
${retried.length ? `\n## Rounds run again\n\n${retried.map((r) => `- ${r}`).join('\n')}\n` : ''}`,
);
log(`written ${values.output}`);
if (previous) rmSync(previous, { recursive: true, force: true });
