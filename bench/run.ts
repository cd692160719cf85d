// Runs the benchmarks of issue 4 and writes bench/RESULTS.md. Not part of `npm test` nor CI.
// Usage: npm run bench -- [--rounds 3] [--seconds 10] [--starts 10] [--only build,startup,contact,site]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CONNECTIONS, contactRound, type ContactRound } from './contact.ts';
import {
  LOAD_HEADER,
  loadRow,
  machine,
  median,
  medians,
  ms,
  percent,
  verdict,
} from './lib/report.ts';
import { ACCEPT, PAGE, siteRound, type SiteRound } from './site.ts';
import { freshBundle } from '../bin/fresh-bundle.js';
import { buildOnce, coldStarts } from './startup.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    starts: { type: 'string', default: '10' },
    only: { type: 'string', default: 'build,startup,contact,site' },
    output: { type: 'string', default: 'bench/RESULTS.md' },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const only = new Set(values.only.split(','));
const root = join(process.cwd(), 'bench', 'out');
const distDir = join(root, 'dist');
mkdirSync(root, { recursive: true });
const log = (line: string) =>
  process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);

const sections: string[] = [];
const retried: string[] = [];

/**
 * The machine is shared: a round whose server vanished or failed under another job's load is run
 * again once, and the results say so; a second failure stops the run.
 */
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
const raw: Record<string, unknown> = {};

// The build comes first: every server below serves the dist/ it writes.
const builds: number[] = [];
for (let round = 0; round < (only.has('build') ? rounds : 1); round++) {
  builds.push(await buildOnce(distDir));
  log(`build ${ms(Math.round(builds.at(-1)!))}`);
}
if (only.has('build')) {
  raw.buildMs = builds;
  const value = median(builds);
  sections.push(`## Site build time

\`node bin/leadgate.js build\` as a user runs it, process start included, into an empty directory.
Target < 3 s: ${verdict(value < 3000)}.

| Median | Each run |
| ---: | --- |
| ${ms(Math.round(value))} | ${builds.map((b) => ms(Math.round(b))).join(', ')} |`);
}

if (only.has('startup')) {
  // The bundle `leadgate build` wrote is used only while no source changed since: rebuild if needed.
  for (let attempt = 0; attempt < 3 && !freshBundle(); attempt++) await buildOnce(distDir);
  const bundled = freshBundle() !== undefined;
  const paths: { name: string; env: Record<string, string> }[] = [
    ...(bundled ? [{ name: 'bundle written by `leadgate build`', env: {} }] : []),
    {
      name: 'tsx, sources compiled on the fly (`LEADGATE_BUNDLE=0`, or a source changed)',
      env: { LEADGATE_BUNDLE: '0' },
    },
  ];
  const rows: string[] = [];
  const startRaw: Record<string, number[][]> = {};
  let headline = Infinity;
  for (const path of paths) {
    const perRound: number[][] = [];
    for (let round = 0; round < rounds; round++) {
      perRound.push(await coldStarts(root, distDir, Number(values.starts), path.env));
      log(`cold start (${path.name}) median ${ms(Math.round(median(perRound.at(-1)!)))}`);
    }
    startRaw[path.name] = perRound;
    const all = perRound.flat();
    headline = Math.min(headline, median(all));
    rows.push(
      `| ${path.name} | ${ms(Math.round(median(all)))} | ${perRound.map((r) => ms(Math.round(median(r)))).join(', ')} | ${ms(Math.round(Math.min(...all)))} | ${ms(Math.round(Math.max(...all)))} |`,
    );
  }
  raw.coldStartMs = startRaw;
  sections.push(`## Cold start to first answer

From \`spawn(node bin/leadgate.js serve)\` to the first HTTP answer on \`/healthz\` (polled every 2 ms
on fresh connections), on an existing journal and a built dist/: ${values.starts} starts per round,
${rounds} rounds, for each way bin/leadgate.js can run.${bundled ? '' : ' The bundle could not be measured: sources kept changing during the run.'}
Target < 500 ms (after \`npm run build\`): ${verdict(bundled && headline < 500)}.

| How it runs | Median of all starts | Median of each round | Fastest | Slowest |
| --- | ---: | --- | ---: | ---: |
${rows.join('\n')}`);
}

if (only.has('contact')) {
  const results: ContactRound[] = [];
  for (let round = 0; round < rounds; round++) {
    results.push(await retryOnce('contact', () => contactRound(root, distDir, seconds)));
    const last = results.at(-1)!;
    log(
      `contact ${Math.round(last.leadgate.requestsPerSecond)} vs bare ${Math.round(last.bare.requestsPerSecond)} req/s, p99 ${last.leadgate.p99} ms`,
    );
  }
  raw.contact = results;
  const ratios = results.map((r) => r.leadgate.requestsPerSecond / r.bare.requestsPerSecond);
  const ratio = median(ratios);
  const p99 = medians(results.map((r) => r.leadgate)).p99;
  sections.push(`## POST /api/contact against a bare Fastify route

${CONNECTIONS} connections, ${seconds} s per measure after a 3 s warm-up, ${rounds} rounds; each round
measures the servers one after the other. leadgate: \`node bin/leadgate.js serve\`, outbox provider
(two e-mails composed by nodemailer and written as .eml files per lead), SQLite journal (each write
on disk before the answer: four per lead, synced in groups), info logs, RATE_LIMIT_PER_MINUTE=0.
Diagnostic: the same app and journal with a provider that does nothing (bench/noop-provider-server.ts).
Bare: Fastify, one route that parses the same JSON and answers 200. Each lead has a distinct address
(autocannon \`-I\`). Where the time goes: docs/performance.md.

Ratio (median of the rounds' ratios): **${percent(ratio)}** of the bare route (each round:
${ratios.map(percent).join(', ')}). Target ≥ 60 %: ${verdict(ratio >= 0.6)}.
p99 of leadgate: **${ms(p99)}**. Target < 25 ms: ${verdict(p99 < 25)}.

${LOAD_HEADER}
${loadRow(
  'leadgate',
  results.map((r) => r.leadgate),
)}
${loadRow(
  'leadgate, provider doing nothing (diagnostic)',
  results.map((r) => r.noopProvider),
)}
${loadRow(
  'bare Fastify',
  results.map((r) => r.bare),
)}`);
}

if (only.has('site')) {
  const results: SiteRound[] = [];
  for (let round = 0; round < rounds; round++) {
    results.push(await retryOnce('site', () => siteRound(root, distDir, seconds)));
    const last = results.at(-1)!;
    log(
      `site html ${Math.round(last.html.leadgate.requestsPerSecond)} vs ${Math.round(last.html.nginx.requestsPerSecond)}, markdown ${Math.round(last.markdown.leadgate.requestsPerSecond)} vs ${Math.round(last.markdown.nginx.requestsPerSecond)}`,
    );
  }
  raw.site = results;
  const parts = (['html', 'markdown'] as const).map((variant) => {
    const ratios = results.map(
      (r) => r[variant].leadgate.requestsPerSecond / r[variant].nginx.requestsPerSecond,
    );
    const ratio = median(ratios);
    return `### ${variant === 'html' ? 'HTML' : 'Markdown'} (\`Accept: ${ACCEPT[variant]}\`)

Ratio: **${percent(ratio)}** of nginx (each round: ${ratios.map(percent).join(', ')}). Target ≥ 50 %: ${verdict(ratio >= 0.5)}.

${LOAD_HEADER}
${loadRow(
  'leadgate',
  results.map((r) => r[variant].leadgate),
)}
${loadRow(
  'nginx',
  results.map((r) => r[variant].nginx),
)}`;
  });
  sections.push(`## GET ${PAGE} with content negotiation against nginx

${CONNECTIONS} connections, ${seconds} s per measure after a 2 s warm-up, ${rounds} rounds. leadgate:
\`node bin/leadgate.js serve\` (dist/ held in memory, headers precomputed, page views not logged: API requests are). nginx
${'`'}${'nginx -c … -p …'}${'`'}, one worker, the same dist/ and the same negotiation (bench/nginx.conf.template),
access log on. No \`Accept-Encoding\`: both send the same bytes (checked before each round).

${parts.join('\n\n')}`);
}

writeFileSync(join(root, 'results.json'), JSON.stringify(raw, null, 2));
writeFileSync(
  values.output,
  `# Benchmark results (issue 4)

Written by \`npm run bench\` (bench/run.ts); how to run them: bench/README.md.

${machine()}

${sections.join('\n\n')}
${retried.length ? `\n## Rounds run again\n\n${retried.map((r) => `- ${r}`).join('\n')}\n` : ''}`,
);
log(`written ${values.output}`);
