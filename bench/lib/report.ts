import { createRequire } from 'node:module';
import { cpus, freemem, totalmem } from 'node:os';
import type { LoadResult } from './load.ts';

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export const round0 = (value: number) => Math.round(value).toLocaleString('en-US');
export const ms = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;
export const percent = (ratio: number) => `${(100 * ratio).toFixed(0)} %`;
export const verdict = (met: boolean) => (met ? '**met**' : '**not met**');

export function machine(): string {
  const cpu = cpus();
  return [
    `- Date: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    `- CPU: ${cpu.length} × ${cpu[0]?.model ?? 'unknown'} (nproc ${cpu.length})`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    `- Node.js ${process.version}, ${process.platform} ${process.arch}`,
    `- Load generator: autocannon ${autocannonVersion()} in its own process on the same machine: the`,
    `  server, autocannon and the driver share the ${cpu.length} cores, so absolute figures understate what`,
    '  a server alone reaches; the ratios compare servers measured under the same conditions.',
  ].join('\n');
}

/** The median of each figure over the rounds of one server. */
export function medians(results: LoadResult[]) {
  return {
    requestsPerSecond: median(results.map((result) => result.requestsPerSecond)),
    p50: median(results.map((result) => result.p50)),
    p99: median(results.map((result) => result.p99)),
  };
}

export function loadRow(name: string, results: LoadResult[]): string {
  const m = medians(results);
  const each = results.map((result) => round0(result.requestsPerSecond)).join(', ');
  return `| ${name} | ${round0(m.requestsPerSecond)} | ${ms(m.p50)} | ${ms(m.p99)} | ${each} |`;
}

export const LOAD_HEADER =
  '| Server | req/s (median) | p50 | p99 | req/s of each round |\n| --- | ---: | ---: | ---: | --- |';

function autocannonVersion(): string {
  const require = createRequire(import.meta.url);
  return (require('autocannon/package.json') as { version: string }).version;
}
