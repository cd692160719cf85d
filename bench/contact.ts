import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runLoad, type LoadResult } from './lib/load.ts';
import { freePort, SITE_ENV, startServerProcess } from './lib/processes.ts';

export const CONNECTIONS = 50;

/** A full contact form (spec 2.1); `[<id>]` makes each lead's address unique, as real traffic is. */
const BODY = JSON.stringify({
  PRENOM: 'Marie',
  NOM: 'Dupont',
  EMAIL: 'marie.[<id>]@example.fr',
  JOB_TITLE: 'Avocate en droit de la famille',
  TYPE_BESOIN: 'Attirer,Convertir',
  SERVICE: 'Référencement local',
  DEMANDE: 'Je voudrais apparaître dans les résultats Google de mon quartier.',
});

export interface ContactRound {
  leadgate: LoadResult;
  bare: LoadResult;
}

async function measure(url: string, seconds: number): Promise<LoadResult> {
  const spec = {
    url,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: BODY,
    connections: CONNECTIONS,
    idReplacement: true,
  };
  await runLoad({ ...spec, seconds: 3 }); // warm-up: JIT, SQLite page cache, sockets
  const result = await runLoad({ ...spec, seconds });
  if (result.failures > 0) throw new Error(`${url}: ${result.failures} failed requests`);
  return result;
}

/**
 * Benchmark 1: the real server (`leadgate serve`, outbox provider, SQLite journal with
 * synchronous = FULL, info logs) against bare Fastify, one after the other in the same round.
 */
export async function contactRound(
  root: string,
  distDir: string,
  seconds: number,
  profileDir?: string,
) {
  const dataDir = mkdtempSync(join(root, 'contact-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/api/contact`;
  const nodeFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const env = {
    ...SITE_ENV,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    MAIL_PROVIDER: 'outbox',
    RATE_LIMIT_PER_MINUTE: '0',
  };
  const leadgate = await startServerProcess(
    process.execPath,
    [...nodeFlags, 'bin/leadgate.js', 'serve'],
    env,
    `http://127.0.0.1:${port}/healthz`,
  );
  let round: ContactRound;
  try {
    const real = await measure(url, seconds);
    await leadgate.stop();
    const barePort = await freePort();
    const bare = await startServerProcess(
      process.execPath,
      ['--import', 'tsx', 'bench/bare-server.ts'],
      { PORT: String(barePort) },
      `http://127.0.0.1:${barePort}/`,
    );
    try {
      round = {
        leadgate: real,
        bare: await measure(`http://127.0.0.1:${barePort}/api/contact`, seconds),
      };
    } finally {
      await bare.stop();
    }
  } finally {
    await leadgate.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return round;
}
