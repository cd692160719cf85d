// docs/performance.md, « One node on SQLite, two on PostgreSQL »: the same contact requests, sent
// at a person's pace (an open loop at a fixed rate), answered by one `leadgate serve` on its SQLite
// journal and by two on one PostgreSQL database, with the same durability (PostgreSQL's defaults:
// fsync and synchronous commits). Run alone:
//   node --import tsx bench/nodes-latency.ts [--rate 20] [--seconds 20] [--rounds 2]
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startPostgresCluster } from '../test/helpers/postgres-cluster.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';
import { withServer } from './lib/servers.ts';
import { quantile, sendAtRate } from './steady-rate.ts';

export interface NodesLatency {
  journal: string;
  sent: number;
  failures: number;
  p50: number;
  p99: number;
  max: number;
}

const ENV = { MAIL_PROVIDER: 'outbox', RATE_LIMIT_PER_MINUTE: '0' };

function summary(journal: string, result: Awaited<ReturnType<typeof sendAtRate>>): NodesLatency {
  return {
    journal,
    sent: result.latencies.length + result.failures,
    failures: result.failures,
    p50: quantile(result.latencies, 0.5),
    p99: quantile(result.latencies, 0.99),
    max: result.latencies.at(-1) ?? 0,
  };
}

/** One node on SQLite, then two on a fresh PostgreSQL database, each after a short warm-up. */
export async function nodesLatencyRound(
  root: string,
  distDir: string,
  rate: number,
  seconds: number,
  databaseUrl: string,
): Promise<NodesLatency[]> {
  const env = { ...ENV, DIST_DIR: distDir };
  const sqlite = await withServer(root, SERVE_ARGS, env, async ({ baseUrl }) => {
    await sendAtRate(baseUrl, rate, 2);
    return summary('one node, SQLite', await sendAtRate(baseUrl, rate, seconds));
  });
  const postgresEnv = { ...env, DATABASE_URL: databaseUrl };
  const postgres = await withServer(root, SERVE_ARGS, postgresEnv, ({ baseUrl: first }) =>
    withServer(root, SERVE_ARGS, postgresEnv, async ({ baseUrl: second }) => {
      await sendAtRate([first, second], rate, 2);
      return summary('two nodes, PostgreSQL', await sendAtRate([first, second], rate, seconds));
    }),
  );
  return [sqlite, postgres];
}

/** A durable private cluster (Debian's binaries) and a new database on it for each round. */
export async function withDurablePostgres<T>(
  work: (newDatabase: () => Promise<string>) => Promise<T>,
): Promise<T> {
  const cluster = await startPostgresCluster(undefined, { durable: true });
  let count = 0;
  try {
    return await work(async () => {
      const name = `bench_nodes_${++count}`;
      const admin = new pg.Client({ connectionString: cluster.url() });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      return cluster.url(name);
    });
  } finally {
    await cluster.destroy();
  }
}

if (process.argv[1] === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '20' },
      seconds: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '2' },
      dist: { type: 'string', default: 'dist' },
    },
  });
  const root = mkdtempSync(join(tmpdir(), 'leadgate-nodes-'));
  await withDurablePostgres(async (newDatabase) => {
    for (let round = 0; round < Number(values.rounds); round++) {
      const results = await nodesLatencyRound(
        root,
        join(process.cwd(), values.dist),
        Number(values.rate),
        Number(values.seconds),
        await newDatabase(),
      );
      for (const r of results) {
        console.log(
          `${r.journal}: ${r.sent} at ${values.rate}/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, max ${r.max.toFixed(0)} ms, ${r.failures} failed`,
        );
      }
    }
  });
}
