// `npm run bench -- --against <ref>` (bench/README.md): this checkout against another release, built
// from git in a temporary worktree, measured in alternated rounds so that the machine's drift
// between minutes weighs on both sides alike (docs/performance.md, « Comparing with a release »).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTACT_BODY, CONNECTIONS, measureServer } from './contact.ts';
import { median, mib, round0 } from './lib/report.ts';
import { runToEnd, SITE_ENV } from './lib/processes.ts';
import { serveArgumentsOf } from './lib/serve-command.ts';
import { withServer } from './lib/servers.ts';
import { runWrk, type MeasuredLoad } from './lib/wrk.ts';
import { ACCEPT } from './site.ts';
import { steadyRateRound, type SteadyRateRound } from './steady-rate.ts';

/** A checkout the comparison starts servers from. */
export interface Checkout {
  label: string;
  cwd: string;
  args: readonly string[];
  distDir: string;
}

/** The pages compared: the home page carries the contact form (its token is signed per answer). */
const PAGES = { home: '/', services: '/services' } as const;
type PageName = keyof typeof PAGES;

export interface CheckoutMeasures {
  accept: MeasuredLoad;
  steady: SteadyRateRound;
  pages: Record<PageName, MeasuredLoad>;
}

export type AgainstRound = Record<'today' | 'ref', CheckoutMeasures>;

const here = fileURLToPath(new URL('..', import.meta.url));

/** This checkout, serving the dist/ the run built. */
export function thisCheckout(distDir: string): Checkout {
  return { label: 'today', cwd: here, args: serveArgumentsOf(here), distDir };
}

/**
 * The release `ref` checked out in the system's temporary folder (outside the checkout, so no tool
 * of this one reads it), installed with `npm ci` as a user would, and its site built for the same
 * SITE_URL as this checkout's. The worktree is kept for the next comparison with the same commit
 * (bench/README.md says how to drop it).
 */
export async function prepareRef(ref: string, log: (line: string) => void): Promise<Checkout> {
  const commit = (await runToEnd('git', ['rev-parse', '--verify', `${ref}^{commit}`])).trim();
  const cwd = join(tmpdir(), 'leadgate-against', commit.slice(0, 12));
  if (!existsSync(join(cwd, 'package.json'))) {
    log(`against ${ref}: worktree ${cwd}`);
    await runToEnd('git', ['worktree', 'prune']);
    await runToEnd('git', ['worktree', 'add', '--force', '--detach', cwd, commit]);
  }
  if (!existsSync(join(cwd, 'node_modules'))) {
    log(`against ${ref}: npm ci`);
    await runToEnd('npm', ['ci', '--no-audit', '--no-fund'], {}, cwd);
  }
  const distDir = join(cwd, 'bench-dist');
  await runToEnd(
    process.execPath,
    ['bin/leadgate.js', 'build'],
    { ...SITE_ENV, DIST_DIR: distDir },
    cwd,
  );
  const label = commit.startsWith(ref) ? commit.slice(0, 7) : `${ref} (${commit.slice(0, 7)})`;
  return { label, cwd, args: serveArgumentsOf(cwd), distDir };
}

async function measurePages(
  root: string,
  checkout: Checkout,
  seconds: number,
): Promise<Record<PageName, MeasuredLoad>> {
  const env = { DIST_DIR: checkout.distDir };
  return withServer(
    root,
    checkout.args,
    env,
    async ({ baseUrl, pid }) => {
      const pages = {} as Record<PageName, MeasuredLoad>;
      for (const [name, path] of Object.entries(PAGES) as [PageName, string][]) {
        const spec = {
          url: `${baseUrl}${path}`,
          headers: { accept: ACCEPT.html },
          connections: CONNECTIONS,
          serverPid: pid,
        };
        await runWrk({ ...spec, seconds: 2 }); // warm-up
        const result = await runWrk({ ...spec, seconds });
        if (result.failures > 0)
          throw new Error(`${spec.url}: ${result.failures} failed (${result.failureDetail})`);
        pages[name] = result;
      }
      return pages;
    },
    checkout.cwd,
  );
}

async function measureCheckout(
  root: string,
  checkout: Checkout,
  seconds: number,
): Promise<CheckoutMeasures> {
  const env = { DIST_DIR: checkout.distDir, MAIL_PROVIDER: 'outbox', RATE_LIMIT_PER_MINUTE: '0' };
  return {
    accept: await measureServer(root, checkout.args, env, seconds, checkout.cwd),
    steady: await steadyRateRound(root, checkout.distDir, 300, 2 * seconds, checkout),
    pages: await measurePages(root, checkout, seconds),
  };
}

/** One round: both checkouts, the first one measured alternating from round to round. */
export async function againstRound(
  root: string,
  today: Checkout,
  ref: Checkout,
  index: number,
  seconds: number,
): Promise<AgainstRound> {
  if (index % 2 === 0) {
    const first = await measureCheckout(root, today, seconds);
    return { today: first, ref: await measureCheckout(root, ref, seconds) };
  }
  const first = await measureCheckout(root, ref, seconds);
  return { ref: first, today: await measureCheckout(root, today, seconds) };
}

interface Figure {
  name: string;
  pick: (measures: CheckoutMeasures) => number;
  unit: string;
  /** The ratio today / ref a target asks for, and in which direction. */
  target?: { atLeast?: number; atMost?: number };
}

const FIGURES: Figure[] = [
  {
    name: 'POST /api/contact: durable leads/s',
    pick: (m) => m.accept.requestsPerSecond,
    unit: 'req/s',
    target: { atLeast: 0.9 },
  },
  {
    name: 'POST /api/contact: server CPU per lead',
    pick: (m) => m.accept.cpuMicrosPerRequest,
    unit: 'µs',
    target: { atMost: 1.1 },
  },
  { name: 'POST /api/contact: p99', pick: (m) => m.accept.p99, unit: 'ms' },
  { name: '300 leads/s while delivering: p99', pick: (m) => m.steady.p99, unit: 'ms' },
  {
    name: '300 leads/s while delivering: CPU per lead',
    pick: (m) => m.steady.cpuMicrosPerRequest,
    unit: 'µs',
  },
  {
    name: 'RSS after the steady run',
    pick: (m) => m.steady.rssBytes / 2 ** 20,
    unit: 'MB',
  },
  ...(Object.keys(PAGES) as PageName[]).flatMap((page): Figure[] => [
    {
      name: `GET ${PAGES[page]}: req/s`,
      pick: (m) => m.pages[page].requestsPerSecond,
      unit: 'req/s',
      target: { atLeast: 0.95 },
    },
    {
      name: `GET ${PAGES[page]}: server CPU per request`,
      pick: (m) => m.pages[page].cpuMicrosPerRequest,
      unit: 'µs',
    },
  ]),
];

const ratioText = (ratio: number) => ratio.toFixed(2);

function verdictOf(figure: Figure, ratio: number): string {
  const { atLeast, atMost } = figure.target ?? {};
  if (atLeast !== undefined) return `≥ ${atLeast}: ${ratio >= atLeast ? 'met' : '**not met**'}`;
  if (atMost !== undefined) return `≤ ${atMost}: ${ratio <= atMost ? 'met' : '**not met**'}`;
  return '';
}

const valueText = (value: number, unit: string) =>
  unit === 'ms' ? `${value.toFixed(1)} ms` : unit === 'MB' ? mib(value * 2 ** 20) : round0(value);

/** The section of bench/RESULTS.md: per figure, both medians, the median ratio and its spread. */
export function againstSection(ref: Checkout, rounds: AgainstRound[], seconds: number): string {
  const rows = FIGURES.map((figure) => {
    const ratios = rounds.map((r) => figure.pick(r.today) / figure.pick(r.ref));
    const today = median(rounds.map((r) => figure.pick(r.today)));
    const theirs = median(rounds.map((r) => figure.pick(r.ref)));
    const spread = `${ratioText(Math.min(...ratios))}–${ratioText(Math.max(...ratios))}`;
    return `| ${figure.name} | ${valueText(theirs, figure.unit)} | ${valueText(today, figure.unit)} | **${ratioText(median(ratios))}** (${spread}) | ${verdictOf(figure, median(ratios))} |`;
  });
  return `## Against ${ref.label}

\`npm run bench -- --against <ref>\`: the release checked out in a worktree, installed with \`npm ci\`
and built, then ${rounds.length} round${rounds.length > 1 ? 's' : ''}, each measuring both checkouts one after the other (today first
in rounds 1, 3, …; the release first in rounds 2, 4, …), every server fresh on a fresh journal,
started with its own \`npm start\` arguments: wrk posting new contact requests (${CONNECTIONS}
connections, ${seconds} s), 300 contact requests a second for ${2 * seconds} s sent on schedule
while the dispatcher delivers (bench/steady-rate.ts), then wrk on two pages (HTML). A ratio is today
/ the release, the median of the rounds' ratios, with its spread. Body posted: ${CONTACT_BODY.length}
bytes, a new address each.

| Figure | ${ref.label} | today | today / release (spread) | Target |
| --- | ---: | ---: | ---: | --- |
${rows.join('\n')}`;
}
