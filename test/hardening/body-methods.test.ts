import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/kernel/observability/logging.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/*
 * Spec 7 and docs/reliability.md ("Hostile input"): a method Fastify reads a body for, sent without
 * a Content-Type (QUERY), is a client's mistake: 415 with the ErrorResponse, on any path, and no
 * error-level log line (an unthrottled stream of them would flood the alerts).
 */
const lines: string[] = [];
let t: TestApp;
let base: string;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  t = await buildTestApp({ logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream) });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('QUERY with no Content-Type', () => {
  for (const path of ['/', '/api/contact', '/mcp', '/api/nope', '/healthz', '/nulle-part']) {
    it(`${path}: 415 unsupported_media_type, no error-level line`, async () => {
      const before = lines.length;
      const response = await fetch(`${base}${path}`, { method: 'QUERY' });
      expect(response.status).toBe(415);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const body = (await response.json()) as { error: { code: string } };
      expect(body.error.code).toBe('unsupported_media_type');
      const levels = lines
        .slice(before)
        .map((line) => (JSON.parse(line) as { level: number }).level);
      expect(levels.filter((level) => level >= 50)).toEqual([]);
    });
  }
});
