import { randomUUID } from 'node:crypto';
import { rssBytesOf } from './lib/cpu.ts';
import { withServer } from './lib/servers.ts';
import { CONNECTIONS, CONTACT_BODY } from './contact.ts';
import { SERVE_ARGS } from './lib/serve-command.ts';

export interface MemoryRound {
  /** RSS in bytes after the first and after the second batch of requests. */
  afterFirst: number;
  afterSecond: number;
  requestsPerBatch: number;
}

/**
 * RSS of `leadgate serve` after N accepted leads, then after N more: each a new address with its own
 * Idempotency-Key, so every piece of per-request state (idempotency, rate-limit, dedupe, delivery
 * backlog) is exercised; flat means none of it is kept in memory. A fetch loop sends an exact number
 * of requests (wrk only runs for a duration); its speed does not matter here.
 */
export async function memoryRound(
  root: string,
  distDir: string,
  requestsPerBatch: number,
): Promise<MemoryRound> {
  return withServer(
    root,
    SERVE_ARGS,
    { DIST_DIR: distDir, RATE_LIMIT_PER_MINUTE: '0' },
    async ({ baseUrl, pid }) => {
      const batch = async () => {
        let sent = 0;
        let failures = 0;
        const worker = async () => {
          while (sent < requestsPerBatch) {
            sent++;
            const id = randomUUID();
            const response = await fetch(`${baseUrl}/api/contact`, {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                accept: 'application/json',
                'idempotency-key': id,
              },
              body: CONTACT_BODY.replace('[<id>]', id),
            });
            await response.arrayBuffer();
            if (response.status !== 200) failures++;
          }
        };
        await Promise.all(Array.from({ length: CONNECTIONS }, worker));
        if (failures > 0) throw new Error(`memory: ${failures} requests not answered 200`);
        // Let timers and the collector settle, as a process between two bursts would.
        await new Promise((resolve) => setTimeout(resolve, 2000));
        return rssBytesOf(pid);
      };
      const afterFirst = await batch();
      const afterSecond = await batch();
      return { afterFirst, afterSecond, requestsPerBatch };
    },
  );
}
