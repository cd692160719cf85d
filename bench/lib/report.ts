import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, totalmem } from 'node:os';
import type { MeasuredLoad } from './wrk.ts';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The p-th percentile of values sorted in ascending order (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Replaces the section `title` (a `## ` heading) of a results file, or appends it, leaving the
 * other sections alone: a benchmark run alone rewrites only its own.
 */
export function replaceSection(file: string, title: string, section: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmark results\n';
  const start = text.indexOf(title);
  if (start === -1) {
    writeFileSync(file, `${text.trimEnd()}\n\n${section}\n`);
    return;
  }
  const next = text.indexOf('\n## ', start + title.length);
  const rest = next === -1 ? '' : text.slice(next);
  writeFileSync(file, `${text.slice(0, start)}${section}\n${rest}`);
}

export const round0 = (value: number) => Math.round(value).toLocaleString('en-US');
export const ms = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;
export const percent = (ratio: number) => `${(100 * ratio).toFixed(0)} %`;
export const verdict = (met: boolean) => (met ? '**met**' : '**not met**');
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

export function machine(): string {
  const cpu = cpus();
  return [
    `- Date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    `- CPU: ${cpu.length} × ${cpu[0]?.model ?? 'unknown'} (nproc ${cpu.length})`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    `- Node.js ${process.version}, ${process.platform} ${process.arch}`,
    `- Load generator: ${wrkVersion()}, one thread, in its own process on the same machine (server,`,
    `  load generator and driver share the ${cpu.length} cores). Each row gives the server's CPU use`,
    '  (1.00 = one core busy: the server, not the load generator, was the limit) and its CPU time per',
    '  request, which does not depend on the load generator.',
  ].join('\n');
}

/** The median of each figure over the rounds of one server. */
export function medians(results: MeasuredLoad[]) {
  const of = (pick: (result: MeasuredLoad) => number) => median(results.map(pick));
  return {
    requestsPerSecond: of((r) => r.requestsPerSecond),
    p50: of((r) => r.p50),
    p99: of((r) => r.p99),
    serverCores: of((r) => r.serverCores),
    cpuMicrosPerRequest: of((r) => r.cpuMicrosPerRequest),
  };
}

export const LOAD_HEADER = [
  '| Server | req/s (median) | p50 | p99 | server CPU (cores) | CPU µs/request | req/s of each round |',
  '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
].join('\n');

export function loadRow(name: string, results: MeasuredLoad[]): string {
  const m = medians(results);
  const each = results.map((result) => round0(result.requestsPerSecond)).join(', ');
  return `| ${name} | ${round0(m.requestsPerSecond)} | ${ms(m.p50)} | ${ms(m.p99)} | ${m.serverCores.toFixed(2)} | ${round0(m.cpuMicrosPerRequest)} | ${each} |`;
}

/** The ratio of two servers' req/s in each round, and its median: the figure to read. */
export function ratios(ours: MeasuredLoad[], baseline: MeasuredLoad[]) {
  const each = ours.map(
    (result, index) => result.requestsPerSecond / baseline[index]!.requestsPerSecond,
  );
  return { median: median(each), each: each.map(percent).join(', ') };
}

function wrkVersion(): string {
  try {
    execFileSync('wrk', ['--version'], { encoding: 'utf8' });
  } catch (error) {
    // wrk prints its version and usage, then exits 1.
    const output = String((error as { stdout?: string }).stdout ?? '');
    return output.split('\n')[0]?.split(' [')[0]?.trim() || 'wrk';
  }
  return 'wrk';
}
