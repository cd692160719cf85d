import { withServer } from './lib/servers.ts';
import { runWrk, type MeasuredLoad } from './lib/wrk.ts';
import { CONNECTIONS, CONTACT_BODY } from './contact.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';

export interface FloodRound {
  /** One address past its limit: every answer a 429. */
  flood: MeasuredLoad;
  bare: MeasuredLoad;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

/**
 * One client floods POST /api/contact past its per-minute limit: after the first 30 leads, every
 * answer is 429 `rate_limited`. Compared with the bare Fastify route answering 200 to the same body.
 */
export async function floodRound(
  root: string,
  distDir: string,
  seconds: number,
): Promise<FloodRound> {
  const spec = { method: 'POST' as const, headers: HEADERS, body: CONTACT_BODY };
  const measure = async (url: string, pid: number, answers: 'success' | 'client-errors') => {
    const load = { ...spec, url, serverPid: pid, connections: CONNECTIONS, answers };
    await runWrk({ ...load, seconds: 2 }); // warm-up, and the limit is used up
    return runWrk({ ...load, seconds });
  };
  const flood = await withServer(
    root,
    SERVE_ARGS,
    { DIST_DIR: distDir, RATE_LIMIT_PER_MINUTE: '30' },
    async ({ baseUrl, pid }) => {
      const result = await measure(`${baseUrl}/api/contact`, pid, 'client-errors');
      const check = await fetch(`${baseUrl}/api/contact`, {
        method: 'POST',
        headers: HEADERS,
        body: CONTACT_BODY,
      });
      if (check.status !== 429)
        throw new Error(`flood: expected 429 after the run, got ${check.status}`);
      return result;
    },
  );
  const bare = await withServer(
    root,
    ['--import', 'tsx', 'bench/bare-server.ts'],
    {},
    ({ baseUrl, pid }) => measure(`${baseUrl}/api/contact`, pid, 'success'),
  );
  return { flood, bare };
}
