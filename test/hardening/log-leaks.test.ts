import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { maskText } from '../../src/kernel/lead/masking.ts';
import { maskUrl } from '../../src/kernel/observability/log-masking.ts';
import { loggerOptions } from '../../src/kernel/observability/logging.ts';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';

/*
 * docs/operations.md, "Logs": no full address, phone or client address in a log line, however the
 * URL hides them (percent-encoded twice or three times) and whatever the domain looks like.
 */
describe('masking what a URL hides behind several encodings', () => {
  it('an address encoded twice (%2540) or three times (%252540) is masked', () => {
    for (const url of ['/api/contact?e=leak1%2540example.net', '/?e=leak1%252540example.net']) {
      const logged = maskUrl(url, []);
      expect(logged).not.toMatch(/leak1/);
      expect(logged).toContain('l***@example.net');
    }
  });

  it('a phone encoded twice (%252B33%2520…) is masked', () => {
    const logged = maskUrl('/?tel=%252B33%25206%252012%252034%252056%252078', []);
    expect(logged).not.toMatch(/12.?34.?56/);
    expect(logged).toContain('******78');
  });

  it('an address at a dotless domain is masked, in text and in a URL', () => {
    expect(maskText('refusé pour leak9@localhost')).toBe('refusé pour l***@localhost');
    expect(maskUrl('/?e=leak9%40localhost', [])).not.toMatch(/leak9/);
  });
});

describe('the client address in lead log lines', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('is the /24 (IPv4) or /48 (IPv6) network, as in the consent record, never the full address', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp({
      env: { TRUST_PROXY: '127.0.0.1' },
      logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream),
    });
    for (const client of ['203.0.113.57', '2001:db8:abcd:12::5']) {
      const response = await postJson(t.app, '/api/contact', validContact, {
        'x-forwarded-for': client,
      });
      expect(response.statusCode).toBe(200);
    }
    const text = lines.join('\n');
    expect(text).toContain('203.0.113.0/24');
    expect(text).toContain('2001:db8:abcd::/48');
    expect(text).not.toContain('203.0.113.57');
    expect(text).not.toContain('2001:db8:abcd:12');
  });
});
