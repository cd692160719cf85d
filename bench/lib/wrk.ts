import { fileURLToPath } from 'node:url';
import { withCpuOf } from './cpu.ts';
import { runToEnd } from './processes.ts';

const REPORT_SCRIPT = fileURLToPath(new URL('wrk-report.lua', import.meta.url));

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Each `[<id>]` in it becomes a number unique to the request, so every lead is a new one. */
  body?: string;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  /** Connection errors, timeouts and (unless expected) answers ≥ 400: a run with any is invalid. */
  failures: number;
  failureDetail: string;
}

export interface WrkSpec extends LoadSpec {
  /** The server under test: its CPU use during the measure is reported beside req/s. */
  serverPid: number;
  /** 'success' (the default): any answer of status 400 or more makes the figure invalid. */
  answers?: 'success' | 'client-errors';
  /** A header set to a value unique to each request (with the body's `[<id>]`), e.g. Idempotency-Key. */
  idHeader?: string;
  /** Stops once this many answers arrived (`seconds` then only bounds the wait). */
  stopAfter?: number;
}

export interface MeasuredLoad extends LoadResult {
  /** Cores the server kept busy (1 = one core saturated): shows whether the server was the limit. */
  serverCores: number;
  /** Server CPU time per request: the figure that does not depend on the load generator. */
  cpuMicrosPerRequest: number;
}

/**
 * wrk (Debian's package, C, one thread here) drives the load: it needs a fraction of the CPU
 * autocannon needs per request, so the server, not the load generator, is what saturates.
 */
export async function runWrk(spec: WrkSpec): Promise<MeasuredLoad> {
  const args = ['-t1', `-c${spec.connections}`, `-d${spec.seconds}s`, '--latency'];
  args.push('-s', REPORT_SCRIPT);
  for (const [name, value] of Object.entries(spec.headers ?? {}))
    args.push('-H', `${name}: ${value}`);
  args.push(spec.url);
  const env: Record<string, string> = { WRK_METHOD: spec.method ?? 'GET' };
  if (spec.body !== undefined) env.WRK_BODY = spec.body;
  if (spec.idHeader !== undefined) env.WRK_ID_HEADER = spec.idHeader;
  if (spec.stopAfter !== undefined) env.WRK_STOP_AFTER = String(spec.stopAfter);
  const { result: output, cpuSeconds } = await withCpuOf(spec.serverPid, () =>
    runToEnd('wrk', args, env),
  );
  const line = output.trim().split('\n').at(-1) ?? '';
  const report = JSON.parse(line) as WrkReport;
  const seconds = report.durationUs / 1e6;
  const socketErrors =
    report.connectErrors + report.readErrors + report.writeErrors + report.timeouts;
  const badStatuses = spec.answers === 'client-errors' ? 0 : report.statusErrors;
  return {
    requestsPerSecond: report.requests / seconds,
    p50: report.p50Us / 1000,
    p99: report.p99Us / 1000,
    total: report.requests,
    failures: socketErrors + badStatuses,
    failureDetail: `${report.statusErrors} answers ≥ 400, ${report.connectErrors} connect, ${report.readErrors} read, ${report.writeErrors} write errors, ${report.timeouts} timeouts`,
    serverCores: cpuSeconds / seconds,
    cpuMicrosPerRequest: (cpuSeconds * 1e6) / Math.max(report.requests, 1),
  };
}

interface WrkReport {
  requests: number;
  durationUs: number;
  p50Us: number;
  p99Us: number;
  connectErrors: number;
  readErrors: number;
  writeErrors: number;
  timeouts: number;
  statusErrors: number;
}
