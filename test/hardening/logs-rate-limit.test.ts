import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/kernel/observability/logging.ts';
import { buildTestApp, validSubscribe } from '../helpers/app.ts';

/*
 * docs/operations.md, "Logs": a flood past the rate limit writes its first refusal at once, then one
 * warning per client and window with the count, not lines per refused request; every refused
 * request still gets the 429 of docs/reliability.md.
 */
describe('a 429 flood is logged once per client and window', () => {
  it('7 requests at a limit of 2: 2 request lines, 5 answers 429 with Retry-After, the first refusal at once, then one warning counting 4', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    const harness = await buildTestApp({
      env: { RATE_LIMIT_PER_MINUTE: '2' },
      logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream),
    });
    const statuses: number[] = [];
    const refusalsWritten = () =>
      lines.filter((line) => line.includes('"msg":"rate limit:')).map((line) => JSON.parse(line));
    try {
      for (let i = 0; i < 7; i += 1) {
        const response = await harness.app.inject({
          method: 'POST',
          url: '/api/subscribe',
          payload: { ...validSubscribe, email: `lea-${i}@example.fr` },
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json()).toMatchObject({
            success: false,
            error: { code: 'rate_limited' },
          });
          expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
          // The operator sees the flood as it starts, not a window later.
          expect(refusalsWritten()).toEqual([
            expect.objectContaining({ refused: 1, client: '127.0.0.1', level: 40 }),
          ]);
        }
      }
    } finally {
      // The window's count is written when it ends, or at close.
      await harness.close();
    }
    expect(statuses).toEqual([200, 200, 429, 429, 429, 429, 429]);
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const warnings = records.filter((record) => String(record.msg).startsWith('rate limit:'));
    expect(warnings).toEqual([
      expect.objectContaining({ refused: 1, client: '127.0.0.1', level: 40 }),
      expect.objectContaining({ refused: 4, client: '127.0.0.1', level: 40 }),
    ]);
    const requestLines = records.filter((record) => record.msg === 'request completed');
    expect(requestLines.map((record) => (record.res as { statusCode: number }).statusCode)).toEqual(
      [200, 200],
    );
    expect(lines.join('\n')).not.toContain('lea-0@example.fr');
  });
});
