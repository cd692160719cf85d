import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { hasTool } from '../helpers/tools.ts';
import { startRedisServer } from './redis-server.ts';

/**
 * Issue 5: with REDIS_URL, the rate-limit counters live in Redis, so two nodes (here two apps, each
 * with its own SQLite journal) count one client's requests together.
 */
describe.skipIf(!hasTool('redis-server'))(
  'rate limit counted in Redis across nodes (issue 5)',
  () => {
    let redis: Awaited<ReturnType<typeof startRedisServer>>;
    let nodes: TestApp[] = [];
    const LIMIT = 3;

    beforeAll(async () => {
      redis = await startRedisServer();
      const env = {
        REDIS_URL: redis.url,
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        TRUST_PROXY: 'true',
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

    it('answers 500 server_error, not a silent pass, while Redis is away', async () => {
      await redis.stop();
      const answer = await subscribe(nodes[1]!, 100, '10.9.0.3');
      expect(answer.statusCode).toBe(500);
      expect(answer.json()).toMatchObject({ success: false, error: { code: 'server_error' } });
    });
  },
);
