import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { hasTool } from '../helpers/tools.ts';
import { startRedisServer } from './redis-server.ts';

/**
 * docs/deployment.md: with REDIS_URL, the rate-limit counters live in Redis, so two nodes (here two apps, each
 * with its own SQLite journal) count one client's requests together.
 */
describe.skipIf(!hasTool('redis-server'))(
  'rate limit counted in Redis across nodes (docs/deployment.md)',
  () => {
    let redis: Awaited<ReturnType<typeof startRedisServer>>;
    let nodes: TestApp[] = [];
    const LIMIT = 3;

    beforeAll(async () => {
      redis = await startRedisServer();
      const env = {
        REDIS_URL: redis.url,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        TRUST_PROXY: '127.0.0.1,::1',
      };
      nodes = [await buildTestApp({ env }), await buildTestApp({ env })];
    });

    afterAll(async () => {
      await Promise.all(nodes.map((node) => node.close()));
      await redis?.stop();
    });

    const subscribe = (node: TestApp, i: number, client: string) =>
      node.app.inject({
        method: 'POST',
        url: '/api/subscribe',
        payload: { email: `redis-${i}@example.fr`, firstName: 'Léa' },
        headers: { 'x-forwarded-for': client },
      });

    it('lets a client through LIMIT times in all, whichever node answers, then 429 rate_limited', async () => {
      const answers = [];
      for (let i = 0; i < LIMIT + 3; i += 1)
        answers.push(await subscribe(nodes[i % 2]!, i, '10.9.0.1'));
      expect(answers.map((answer) => answer.statusCode)).toEqual([
        ...Array<number>(LIMIT).fill(200),
        ...Array<number>(3).fill(429),
      ]);
      expect(answers.at(-1)!.json().error.code).toBe('rate_limited');
      expect((await subscribe(nodes[0]!, 99, '10.9.0.2')).statusCode).toBe(200);
    });

    it('Redis stopped mid-run: every lead answered 200 and journaled, counters fall back to memory (docs/operations.md)', async () => {
      const sent = 24;
      const answers = [];
      for (let i = 0; i < sent; i += 1) {
        // Halfway, the counter store goes away while requests keep coming.
        if (i === sent / 2) await redis.stop();
        answers.push(subscribe(nodes[i % 2]!, 1000 + i, `10.8.0.${i}`));
      }
      const statuses = (await Promise.all(answers)).map((answer) => answer.statusCode);
      expect(statuses).toEqual(Array<number>(sent).fill(200));
      const journaled = (await Promise.all(nodes.map((node) => node.store.list()))).flat();
      const emails = journaled.map((entry) => (entry.lead.data as { email: string }).email);
      for (let i = 0; i < sent; i += 1) expect(emails).toContain(`redis-${1000 + i}@example.fr`);

      // Still ready (leads are taken), and says what runs degraded.
      const ready = await nodes[0]!.app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ok',
        warnings: [expect.stringMatching(/Redis unreachable since .*per node in memory/)],
      });

      // Limits still hold, per node: LIMIT requests from one client on one node, then 429.
      const client = [];
      for (let i = 0; i < LIMIT + 1; i += 1)
        client.push((await subscribe(nodes[0]!, 2000 + i, '10.9.0.9')).statusCode);
      expect(client).toEqual([...Array<number>(LIMIT).fill(200), 429]);
    });
  },
);
