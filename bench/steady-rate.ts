// docs/performance.md, « Accepting while delivering »: contact requests sent at a fixed rate (open
// loop) to `leadgate serve` as configured by default, while its dispatcher delivers each lead beside
// them. `npm run bench -- --only steady` (bench/README.md).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'undici';
import { CONTACT_BODY } from './contact.ts';
import { rssBytesOf, withCpuOf } from './lib/cpu.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';
import { withServer } from './lib/servers.ts';

export interface SteadyRateRound {
  rate: number;
  sent: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
  /** Server CPU time per request, deliveries included. */
  cpuMicrosPerRequest: number;
  /** `.eml` files in the outbox when the last answer came: what the dispatcher did meanwhile. */
  mailsWritten: number;
  /** The server's resident memory when the last answer came. */
  rssBytes: number;
}

export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/**
 * An open-loop client: request `i` is due at `start + i / rate` whatever the earlier answers, and
 * its latency counts from that moment, so a server that falls behind is charged for the wait it
 * causes (no coordinated omission, which a closed-loop generator like wrk's default has).
 */
export async function sendAtRate(
  baseUrls: string | readonly string[],
  rate: number,
  seconds: number,
): Promise<{ latencies: number[]; failures: number }> {
  // Several servers (nodes of one journal) take the requests in turn.
  const pools = [baseUrls].flat().map((url) => new Pool(url, { connections: 64, pipelining: 1 }));
  const total = rate * seconds;
  const latencies: number[] = [];
  let failures = 0;
  const inFlight: Promise<void>[] = [];
  const start = performance.now();
  for (let index = 0; index < total; index++) {
    const due = start + (index * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const body = CONTACT_BODY.replace('[<id>]', `steady${index}`);
    inFlight.push(
      pools[index % pools.length]!.request({
        path: '/api/contact',
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body,
      })
        .then(async (answer) => {
          await answer.body.dump();
          if (answer.statusCode !== 200) failures++;
          latencies.push(performance.now() - due);
        })
        .catch(() => {
          failures++;
        }),
    );
  }
  await Promise.all(inFlight);
  await Promise.all(pools.map((pool) => pool.close()));
  return { latencies: latencies.sort((a, b) => a - b), failures };
}

export async function steadyRateRound(
  root: string,
  distDir: string,
  rate: number,
  seconds: number,
  /** Another checkout's server (`--against`): its `npm start` arguments and folder. */
  checkout: { args: readonly string[]; cwd?: string } = { args: SERVE_ARGS },
): Promise<SteadyRateRound> {
  const env = { DIST_DIR: distDir, MAIL_PROVIDER: 'outbox', RATE_LIMIT_PER_MINUTE: '0' };
  return withServer(
    root,
    checkout.args,
    env,
    async ({ baseUrl, pid, dataDir }) => {
      await sendAtRate(baseUrl, rate, 3); // warm-up: JIT, SQLite page cache, sockets
      const { result, cpuSeconds } = await withCpuOf(pid, () => sendAtRate(baseUrl, rate, seconds));
      const outbox = join(dataDir, 'outbox');
      return {
        rate,
        sent: rate * seconds,
        failures: result.failures,
        p50: quantile(result.latencies, 0.5),
        p99: quantile(result.latencies, 0.99),
        max: result.latencies.at(-1) ?? 0,
        cpuMicrosPerRequest: (cpuSeconds * 1e6) / (rate * seconds),
        mailsWritten: readdirSync(outbox).length,
        rssBytes: rssBytesOf(pid),
      };
    },
    checkout.cwd,
  );
}
