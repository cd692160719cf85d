// docs/performance.md, « One node on SQLite, two on PostgreSQL »: the same contact requests, sent
// at a person's pace (an open loop at a fixed rate), answered by one `leadgate serve` on its SQLite
// journal and by two on one PostgreSQL database, with the same durability (PostgreSQL's defaults:
// fsync and synchronous commits). `npm run bench -- --only nodes` (bench/README.md).
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

/**
 * One node on SQLite, then two on a new private PostgreSQL cluster with its default durability
 * (Debian's binaries), each after a short warm-up.
 */
export async function nodesLatencyRound(
  root: string,
  distDir: string,
  rate: number,
  seconds: number,
): Promise<NodesLatency[]> {
  const env = { ...ENV, DIST_DIR: distDir };
  const sqlite = await withServer(root, SERVE_ARGS, env, async ({ baseUrl }) => {
    await sendAtRate(baseUrl, rate, 2);
    return summary('one node, SQLite', await sendAtRate(baseUrl, rate, seconds));
  });
  const cluster = await startPostgresCluster(undefined, { durable: true });
  try {
    const postgresEnv = { ...env, DATABASE_URL: cluster.url() };
    const postgres = await withServer(root, SERVE_ARGS, postgresEnv, ({ baseUrl: first }) =>
      withServer(root, SERVE_ARGS, postgresEnv, async ({ baseUrl: second }) => {
        await sendAtRate([first, second], rate, 2);
        return summary('two nodes, PostgreSQL', await sendAtRate([first, second], rate, seconds));
      }),
    );
    return [sqlite, postgres];
  } finally {
    await cluster.destroy();
  }
}
