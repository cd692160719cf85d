import { withServer } from './lib/servers.ts';
import { runWrk, type MeasuredLoad } from './lib/wrk.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';

export const CONNECTIONS = 50;

/** A full contact form (spec 2.1); `[<id>]` makes each lead's address unique, as real traffic is. */
export const CONTACT_BODY = JSON.stringify({
  PRENOM: 'Marie',
  NOM: 'Dupont',
  EMAIL: 'marie.[<id>]@example.fr',
  JOB_TITLE: 'Avocate en droit de la famille',
  TYPE_BESOIN: 'Attirer,Convertir',
  SERVICE: 'Référencement local',
  DEMANDE: 'Je voudrais apparaître dans les résultats Google de mon quartier.',
});

export interface ContactRound {
  leadgate: MeasuredLoad;
  /** Diagnostic: the same app and journal with a provider that does nothing. */
  noopProvider: MeasuredLoad;
  /** Diagnostic: the same app and journal with no destination: the accept path alone. */
  noDestination: MeasuredLoad;
  /** Diagnostic: the app with a journal that writes nothing and no log line per request. */
  noJournal: MeasuredLoad;
  bare: MeasuredLoad;
  /** Diagnostic: node:http reading and parsing the same JSON, without Fastify. */
  nodeFloor: MeasuredLoad;
}

/** wrk posting new contact requests to one server started from `cwd` (this checkout by default). */
export async function measureServer(
  root: string,
  args: readonly string[],
  env: Record<string, string>,
  seconds: number,
  cwd?: string,
): Promise<MeasuredLoad> {
  return withServer(
    root,
    args,
    env,
    async ({ baseUrl, pid }) => {
      const spec = {
        url: `${baseUrl}/api/contact`,
        method: 'POST' as const,
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: CONTACT_BODY,
        connections: CONNECTIONS,
        serverPid: pid,
      };
      await runWrk({ ...spec, seconds: 3 }); // warm-up: JIT, SQLite page cache, sockets
      const result = await runWrk({ ...spec, seconds });
      if (result.failures > 0)
        throw new Error(
          `${spec.url}: ${result.failures} failed requests (${result.failureDetail})`,
        );
      return result;
    },
    cwd,
  );
}

/**
 * The real server (`leadgate serve`: outbox provider, SQLite journal, each write on disk before the
 * answer, info logs) against bare Fastify, one after the other in the same round; between them, the
 * same app with a provider that does nothing, to tell the e-mails' share, with no destination at
 * all, to tell the dispatcher's, and with neither journal writes nor log lines, to tell theirs; after
 * bare Fastify, Node's HTTP layer alone, to tell Fastify's.
 */
export async function contactRound(
  root: string,
  distDir: string,
  seconds: number,
): Promise<ContactRound> {
  const env = { DIST_DIR: distDir, MAIL_PROVIDER: 'outbox', RATE_LIMIT_PER_MINUTE: '0' };
  return {
    leadgate: await measureServer(root, SERVE_ARGS, env, seconds),
    noopProvider: await measureServer(
      root,
      ['--import', 'tsx', 'bench/noop-provider-server.ts'],
      env,
      seconds,
    ),
    noDestination: await measureServer(
      root,
      ['--import', 'tsx', 'bench/no-destination-server.ts'],
      env,
      seconds,
    ),
    noJournal: await measureServer(
      root,
      ['--import', 'tsx', 'bench/no-journal-server.ts'],
      env,
      seconds,
    ),
    bare: await measureServer(root, ['--import', 'tsx', 'bench/bare-server.ts'], env, seconds),
    nodeFloor: await measureServer(
      root,
      ['--import', 'tsx', 'bench/node-post-floor-server.ts'],
      env,
      seconds,
    ),
  };
}
