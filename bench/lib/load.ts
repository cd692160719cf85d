import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { runToEnd } from './processes.ts';

const require = createRequire(import.meta.url);
const AUTOCANNON = join(dirname(require.resolve('autocannon/package.json')), 'autocannon.js');

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** autocannon's -I: each `[<id>]` in the body becomes a fresh id, so every lead is a new one. */
  idReplacement?: boolean;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  /** Answers outside 2xx, plus connection errors and timeouts: a run with any is not a valid figure. */
  failures: number;
  /** What the failures were, for the error message: status codes and connection errors. */
  failureDetail: string;
}

/**
 * autocannon runs as its own process (not inside the benchmark driver, not inside the server), so the
 * three compete for the two cores as the operating system decides, the way a real client would.
 */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const args = [AUTOCANNON, '--json', '--no-progress'];
  args.push('-c', String(spec.connections), '-d', String(spec.seconds), '-m', spec.method ?? 'GET');
  for (const [name, value] of Object.entries(spec.headers ?? {}))
    args.push('-H', `${name}=${value}`);
  if (spec.body !== undefined) args.push('-b', spec.body);
  if (spec.idReplacement) args.push('-I');
  args.push(spec.url);
  const report = JSON.parse(await runToEnd(process.execPath, args)) as AutocannonReport;
  return {
    requestsPerSecond: report.requests.average,
    p50: report.latency.p50,
    p99: report.latency.p99,
    total: report.requests.total,
    failures: report.non2xx + report.errors + report.timeouts,
    failureDetail: `status ${JSON.stringify(report.statusCodeStats)}, ${report.errors} connection errors, ${report.timeouts} timeouts`,
  };
}

interface AutocannonReport {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
}
