import Fastify, { type FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRefusalLog, wasRefused } from '../../../src/kernel/observability/refusal-log.ts';

const WINDOW_MS = 60_000;

/*
 * docs/operations.md, "Logs": the first refusal of a client is written at once, the next ones as one
 * line per window with their count; a flood that goes on is one line a window.
 */
describe('the refusal log of the rate limit', () => {
  let records: { client: string; refused: number; msg: string }[];
  let refuse: (client: string) => FastifyRequest;
  let closeApp: () => Promise<void>;

  beforeEach(() => {
    vi.useFakeTimers();
    records = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        records.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const app = Fastify();
    const log = createRefusalLog(app, pino(stream), WINDOW_MS);
    // Refusals Fastify answers and refusals answered before it are counted together.
    let answeredByFastify = false;
    refuse = (client) => {
      const request = {} as FastifyRequest;
      answeredByFastify = !answeredByFastify;
      if (answeredByFastify) log.onExceeded(request, client);
      else log.count(client);
      return request;
    };
    closeApp = () => app.close();
  });
  afterEach(() => vi.useRealTimers());

  const refused = () => records.map(({ client, refused }) => [client, refused]);

  it('writes the first refusal at once and counts the next ones until the window ends', () => {
    const request = refuse('192.0.2.1');
    expect(wasRefused(request)).toBe(true);
    expect(refused()).toEqual([['192.0.2.1', 1]]);
    for (let i = 0; i < 4; i++) refuse('192.0.2.1');
    refuse('2001:db8::/64');
    expect(refused()).toEqual([
      ['192.0.2.1', 1],
      ['2001:db8::/64', 1],
    ]);
    vi.advanceTimersByTime(WINDOW_MS);
    expect(refused()).toEqual([
      ['192.0.2.1', 1],
      ['2001:db8::/64', 1],
      ['192.0.2.1', 4],
    ]);
    expect(records.at(-1)?.msg).toBe('rate limit: 4 more request(s) from one client refused (429)');
  });

  it('a flood that goes on is one line a window; a client refused again after a quiet window is new', () => {
    refuse('192.0.2.1');
    for (let window = 0; window < 3; window++) {
      for (let i = 0; i < 10; i++) refuse('192.0.2.1');
      vi.advanceTimersByTime(WINDOW_MS);
    }
    expect(refused()).toEqual([
      ['192.0.2.1', 1],
      ['192.0.2.1', 10],
      ['192.0.2.1', 10],
      ['192.0.2.1', 10],
    ]);
    vi.advanceTimersByTime(WINDOW_MS);
    expect(records).toHaveLength(4);
    refuse('192.0.2.1');
    expect(refused().at(-1)).toEqual(['192.0.2.1', 1]);
  });

  it('writes what is still counted when the service stops, and nothing after', async () => {
    refuse('192.0.2.1');
    refuse('192.0.2.1');
    refuse('192.0.2.1');
    await closeApp();
    expect(refused()).toEqual([
      ['192.0.2.1', 1],
      ['192.0.2.1', 2],
    ]);
    vi.advanceTimersByTime(2 * WINDOW_MS);
    expect(records).toHaveLength(2);
  });
});
