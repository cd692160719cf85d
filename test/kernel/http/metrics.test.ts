import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loggerOptions } from '../../../src/kernel/observability/logging.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validContact, validSubscribe, type TestApp } from '../../helpers/app.ts';
import { unreachableSmtpUrl } from '../../helpers/smtp-sink.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** One sample's value from the Prometheus text, e.g. value(text, 'leadgate_backlog_leads'). */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function scrape(app: TestApp['app']) {
  const answer = await app.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.body;
}

describe('GET /metrics (docs/operations.md)', () => {
  it('exposes the backlog that a failing provider grows, with deliveries, accepted leads and requests', async () => {
    t = await buildTestApp({
      env: {
        METRICS_TOKEN: TOKEN,
        DELIVERY: 'queued',
        MAIL_PROVIDER: 'smtp',
        SMTP_URL: await unreachableSmtpUrl(),
      },
      dispatch: true,
    });
    const before = await scrape(t.app);
    expect(value(before, 'leadgate_backlog_steps')).toBe(0);
    expect(value(before, 'leadgate_backlog_oldest_age_seconds')).toBe(0);

    for (let i = 0; i < 3; i += 1) {
      const answer = await postJson(t.app, '/api/contact', {
        ...validContact,
        EMAIL: `m${i}@example.fr`,
      });
      // Queued delivery (docs/delivery.md): accepted once journaled, whatever the provider does.
      expect(answer.statusCode).toBe(200);
    }
    // Each lead's two e-mails fail once in the background, then wait for their next attempt.
    const after = await vi.waitFor(
      async () => {
        const text = await scrape(t!.app);
        for (const step of ['confirmation-email', 'agency-notification'])
          expect(value(text, `leadgate_deliveries_total{step="${step}",outcome="retrying"}`)).toBe(
            3,
          );
        expect(value(text, 'leadgate_backlog_oldest_age_seconds')).toBeGreaterThanOrEqual(1);
        return text;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(value(after, 'leadgate_backlog_steps')).toBe(6);
    expect(value(after, 'leadgate_dead_steps')).toBe(0);
    expect(value(after, 'leadgate_leads_accepted_total{kind="contact"}')).toBe(3);
    expect(value(after, 'leadgate_journal_write_seconds_count')).toBe(3);
    expect(after).toMatch(
      /leadgate_http_requests_total\{route="\/api\/contact",method="POST",status="200"\} 3/,
    );
  });

  it('counts deliveries that succeed, and the backlog stays empty', async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    expect((await postJson(t.app, '/api/subscribe', validSubscribe)).statusCode).toBe(200);
    const text = await vi.waitFor(
      async () => {
        const scraped = await scrape(t!.app);
        expect(value(scraped, 'leadgate_backlog_steps')).toBe(0);
        return scraped;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(value(text, 'leadgate_leads_accepted_total{kind="subscribe"}')).toBe(1);
    expect(
      value(text, 'leadgate_deliveries_total{step="agency-notification",outcome="done"}'),
    ).toBe(1);
  });

  it('answers only with the Bearer token, and does not exist without METRICS_TOKEN', async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
      const answer = await t.app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(answer.statusCode, authorization).toBe(401);
      expect(answer.headers['www-authenticate']).toBe('Bearer');
      expect(answer.body).not.toContain('leadgate_');
    }
    await t.close();
    t = await buildTestApp();
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('health probes are not logged (docs/operations.md)', () => {
  it('/healthz and /readyz write no request line; other requests still do', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp({ logger: loggerOptions({ logLevel: 'info', secrets: [] }, stream) });
    await t.app.inject('/healthz');
    await t.app.inject('/readyz');
    expect(lines).toEqual([]);
    await t.app.inject({ method: 'GET', url: '/api/nowhere' });
    expect(lines.some((line) => line.includes('/api/nowhere'))).toBe(true);
  });
});
