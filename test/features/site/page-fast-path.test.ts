import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../src/kernel/http/site/site-files.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

// Pages answered over a real socket skip Fastify (src/features/site/page-fast-path.ts); the answer
// must be the one Fastify's route gives (app.inject never takes the fast path), header for header.
let site: TestSite;
let test: TestApp;
let port: number;

beforeAll(async () => {
  site = await buildTestSite();
  test = await buildTestApp({ siteDir: site.dir });
  await test.app.listen({ port: 0, host: '127.0.0.1' });
  port = (test.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await test?.close();
  site?.remove();
});

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: Buffer;
}

function overSocket(method: string, path: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A page with a form carries the bot trap's token of the second it was served
 * (docs/api-decisions.md, "Bot trap"): two answers a second apart differ there, and only there.
 */
function withoutToken(body: Buffer, encoding: unknown): string {
  const plain =
    encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
  return plain.toString('utf8').replace(/name="form_token" value="[^"]*"/g, 'name="form_token"');
}

/** What may differ between two answers to one request: the id and the transport's own headers. */
function comparable(headers: Answer['headers']) {
  const { date, connection, 'keep-alive': keepAlive, 'x-request-id': id, ...rest } = headers;
  void [date, connection, keepAlive, id];
  // A form page compressed in another second may differ in length: each length is checked apart.
  delete rest['content-length'];
  return rest;
}

const cases: [string, string, Record<string, string>][] = [
  ['GET', '/services', {}],
  ['GET', '/services', { accept: 'text/markdown, text/html;q=0.5' }],
  ['GET', '/services?utm_source=x', { accept: 'text/html' }],
  ['GET', '/services.md', { 'accept-encoding': 'br, gzip' }],
  ['GET', '/', { 'accept-encoding': 'gzip' }],
  ['HEAD', '/secteurs/btp', {}],
  ['GET', '/llms.txt', {}],
  ['GET', '/sitemap.xml', { 'accept-encoding': 'gzip;q=0, br' }],
];

describe('page fast path (docs/performance.md)', () => {
  it.each(cases)(
    '%s %s %j: same status, headers and body as the Fastify route',
    async (method, path, headers) => {
      const socket = await overSocket(method, path, headers);
      const routed = await test.app.inject({ method: method as 'GET', url: path, headers });
      expect(socket.status).toBe(routed.statusCode);
      expect(comparable(socket.headers)).toEqual(comparable(routed.headers));
      expect(Number(socket.headers['content-length'] ?? 0)).toBe(
        method === 'HEAD' ? Number(routed.headers['content-length']) : socket.body.length,
      );
      expect(withoutToken(socket.body, socket.headers['content-encoding'])).toBe(
        withoutToken(routed.rawPayload, routed.headers['content-encoding']),
      );
      expect(socket.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it('answers 304 to a matching If-None-Match, like the route', async () => {
    const first = await overSocket('GET', '/services', {});
    const etag = String(first.headers.etag);
    const socket = await overSocket('GET', '/services', { 'if-none-match': etag });
    const routed = await test.app.inject({ url: '/services', headers: { 'if-none-match': etag } });
    expect(socket.status).toBe(304);
    expect(routed.statusCode).toBe(304);
    expect(comparable(socket.headers)).toEqual(comparable(routed.headers));
    expect(socket.body.length).toBe(0);
  });

  it('keeps a sane incoming X-Request-Id and leaves unknown paths and other methods to Fastify', async () => {
    const page = await overSocket('GET', '/services', { 'x-request-id': 'proxy-42' });
    expect(page.headers['x-request-id']).toBe('proxy-42');
    const missing = await overSocket('GET', '/nope', {});
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
    const post = await overSocket('POST', '/services', {});
    expect(post.status).toBe(404);
    expect(readManifest(site.dir).pages.length).toBeGreaterThan(5);
  });
});
