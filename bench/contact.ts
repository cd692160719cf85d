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
  /** Diagnostic: the same app and journal with a provider that does nothing. */
  noopProvider: LoadResult;
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
  if (result.failures > 0)
    throw new Error(`${url}: ${result.failures} failed requests (${result.failureDetail})`);
  return result;
}

/** Starts a server process, measures it, stops it, and removes its data. */
async function measureServer(
  root: string,
  args: string[],
  env: Record<string, string>,
  seconds: number,
): Promise<LoadResult> {
  const dataDir = mkdtempSync(join(root, 'contact-'));
  const port = await freePort();
  const server = await startServerProcess(
    process.execPath,
    args,
    { ...env, PORT: String(port), DATA_DIR: dataDir },
    `http://127.0.0.1:${port}/healthz`,
  );
  try {
    return await measure(`http://127.0.0.1:${port}/api/contact`, seconds);
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Benchmark 1: the real server (`leadgate serve`: outbox provider, SQLite journal, each write on
 * disk before the answer, info logs) against bare Fastify, one after the other in the same round;
 * between them, the same app with a provider that does nothing, to tell the e-mails' share.
 */
export async function contactRound(
  root: string,
  distDir: string,
  seconds: number,
  profileDir?: string,
): Promise<ContactRound> {
  const nodeFlags = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const env = {
    ...SITE_ENV,
    HOST: '127.0.0.1',
    DIST_DIR: distDir,
    MAIL_PROVIDER: 'outbox',
    RATE_LIMIT_PER_MINUTE: '0',
  };
  return {
    leadgate: await measureServer(root, [...nodeFlags, 'bin/leadgate.js', 'serve'], env, seconds),
    noopProvider: await measureServer(
      root,
      ['--import', 'tsx', 'bench/noop-provider-server.ts'],
      env,
      seconds,
    ),
    bare: await measureServer(root, ['--import', 'tsx', 'bench/bare-server.ts'], env, seconds),
  };
}
