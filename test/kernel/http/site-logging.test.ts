import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/kernel/config.ts';
import { loggerOptions } from '../../../src/kernel/observability/logging.ts';
import { createProvider } from '../../../src/providers/create-provider.ts';
import { createStore } from '../../../src/wiring/create-store.ts';
import { validContact } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';

/**
 * docs/performance.md (benchmark against nginx): a page view writes no request log lines, since two masked lines
 * per view cost 40 % of the throughput; API requests keep theirs, with their request id.
 */
describe('request logs: API requests are logged, page views are not (docs/performance.md)', () => {
  const lines: string[] = [];
  let site: TestSite;
  let dataDir: string;
  let close: () => Promise<void>;
  let app: FastifyInstance;

  beforeAll(async () => {
    site = await buildTestSite();
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-site-logging-'));
    const config = loadConfig({ DATA_DIR: dataDir, RATE_LIMIT_PER_MINUTE: '0' });
    const store = await createStore(config);
    const provider = createProvider(config, store, mailIdentity());
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildApp({
      config,
      store,
      provider,
      logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream),
      siteDir: site.dir,
    });
    close = async () => {
      await app.close();
      await provider.close();
      await store.close();
    };
  }, 60_000);
  afterAll(async () => {
    await close?.();
    site?.remove();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const requestLines = () =>
    lines.map((line) => JSON.parse(line)).filter((entry) => entry.reqId !== undefined);

  it('a page, in HTML or Markdown, answers without a request log line', async () => {
    lines.length = 0;
    const html = await app.inject({ url: '/services' });
    const markdown = await app.inject({ url: '/services', headers: { accept: 'text/markdown' } });
    expect([html.statusCode, markdown.statusCode]).toEqual([200, 200]);
    expect(requestLines()).toEqual([]);
  });

  it('an API request is logged with its request id', async () => {
    lines.length = 0;
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: validContact,
    });
    expect(response.statusCode).toBe(200);
    const ids = requestLines().map((entry) => entry.reqId);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids)).toEqual(new Set([response.headers['x-request-id']]));
  });
});
