import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/kernel/config.ts';
import { consentRecord } from '../../src/kernel/lead/consent.ts';
import { ConfigurationError, UpstreamError } from '../../src/kernel/lead/errors.ts';
import type { Lead } from '../../src/kernel/lead/lead.ts';
import { isPublicAddress } from '../../src/providers/webhooks/webhook-address-guard.ts';
import { createWebhookDestination } from '../../src/providers/webhooks/webhook-destination.ts';
import { webhookIdFor } from '../../src/providers/webhooks/webhook-message.ts';
import {
  createWebhookSender,
  type WebhookSender,
} from '../../src/providers/webhooks/webhook-sender.ts';
import { WebhookEventSchema } from '../../src/kernel/schemas/webhook-event.ts';
import { validAudit, validContact, validSubscribe } from '../helpers/app.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.ts';

const ajv = new Ajv({ strict: false });
addFormats.default(ajv, ['email', 'date-time']);
const isWebhookEvent = ajv.compile(WebhookEventSchema);

function lead(request: Pick<Lead, 'kind' | 'data'>, id = 'lead-0001'): Lead {
  return { ...request, id, receivedAt: new Date('2026-11-23T09:30:00.000Z') } as Lead;
}

/** The sender as `leadgate serve` builds it from the environment. */
function sender(env: Record<string, string> = {}): WebhookSender {
  const { key, timeoutMs, allowPrivate } = loadConfig({
    WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  }).webhooks;
  return createWebhookSender({ key: key!, timeoutMs, allowPrivate });
}

let receiver: WebhookReceiver;
let senders: WebhookSender[];
beforeEach(async () => {
  receiver = await startWebhookReceiver();
  senders = [];
});
afterEach(async () => {
  await Promise.all(senders.map((s) => s.close()));
  await receiver.close();
});
function open(env?: Record<string, string>) {
  const created = sender(env);
  senders.push(created);
  return created;
}

describe('webhooks: Standard Webhooks format (docs/webhooks.md)', () => {
  it('signs each kind of lead so that the standardwebhooks package verifies it; the body follows WebhookEventSchema', async () => {
    const destination = createWebhookDestination(new URL(receiver.url), open());
    const given = new Date('2026-11-23T09:30:00.000Z');
    const evidence = { channel: 'form', page: '/contact', clientAddress: '203.0.113.57' } as const;
    const { record, wording } = consentRecord('contact', evidence, given);
    const leads = [
      { ...lead({ kind: 'contact', data: validContact }, 'lead-c'), consent: record },
      lead({ kind: 'subscribe', data: validSubscribe }, 'lead-s'),
      lead({ kind: 'audit', data: validAudit }, 'lead-a'),
    ];
    for (const each of leads) {
      await expect(destination.deliver(each, AbortSignal.timeout(5000))).resolves.toBe(
        `${destination.name} answered 200`,
      );
    }
    expect(receiver.received.map((r) => r.verifyError)).toEqual([undefined, undefined, undefined]);
    expect(receiver.received.map((r) => r.event)).toEqual(
      leads.map((each) => ({
        type: `lead.${each.kind}`,
        timestamp: '2026-11-23T09:30:00.000Z',
        data: {
          id: each.id,
          receivedAt: '2026-11-23T09:30:00.000Z',
          // The record of a lead, without its network; null for leads journaled before consent was.
          consent: each.consent
            ? {
                version: wording.version,
                wordingSha256: createHash('sha256').update(wording.text).digest('hex'),
                givenAt: '2026-11-23T09:30:00.000Z',
                channel: 'form',
                page: '/contact',
              }
            : null,
          fields: each.data,
        },
      })),
    );
    for (const { event } of receiver.received) expect(isWebhookEvent(event)).toBe(true);
    expect(receiver.received[0]!.headers).toMatchObject({
      'content-type': 'application/json',
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
    });
  });

  it('a signature made with another secret is refused by the receiver', async () => {
    const other = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const destination = createWebhookDestination(
      new URL(receiver.url),
      open({ WEBHOOK_SECRET: other }),
    );
    await destination.deliver(
      lead({ kind: 'subscribe', data: validSubscribe }),
      AbortSignal.timeout(5000),
    );
    expect(receiver.received[0]!.verifyError).toMatch(/signature/i);
  });

  it('keeps one webhook-id per lead and destination across attempts, with a fresh timestamp each time', async () => {
    let now = new Date('2026-11-23T10:00:00Z');
    const { key } = loadConfig({ WEBHOOK_SECRET: TEST_WEBHOOK_SECRET }).webhooks;
    const clocked = createWebhookSender({
      key: key!,
      timeoutMs: 5000,
      allowPrivate: true,
      now: () => now,
    });
    senders.push(clocked);
    const destination = createWebhookDestination(new URL(receiver.url), clocked);
    const other = createWebhookDestination(new URL(`${receiver.url}?flow=2`), clocked);
    const contact = lead({ kind: 'contact', data: validContact });
    receiver.answer = 500;
    await expect(destination.deliver(contact, AbortSignal.timeout(5000))).rejects.toThrow(
      UpstreamError,
    );
    now = new Date('2026-11-23T10:00:30Z');
    receiver.answer = 200;
    await destination.deliver(contact, AbortSignal.timeout(5000));
    await other.deliver(contact, AbortSignal.timeout(5000));
    const [first, retry, elsewhere] = receiver.received.map((r) => r.headers);
    expect(retry!['webhook-id']).toBe(first!['webhook-id']);
    expect(first!['webhook-id']).toBe(webhookIdFor(contact.id, destination.name));
    expect(elsewhere!['webhook-id']).not.toBe(first!['webhook-id']);
    expect([first!['webhook-timestamp'], retry!['webhook-timestamp']]).toEqual([
      String(Date.parse('2026-11-23T10:00:00Z') / 1000),
      String(Date.parse('2026-11-23T10:00:30Z') / 1000),
    ]);
  });
});

describe('webhooks: what counts as delivered', () => {
  it('a non-2xx answer is an UpstreamError naming the status', async () => {
    receiver.answer = 503;
    const destination = createWebhookDestination(new URL(receiver.url), open());
    await expect(
      destination.deliver(lead({ kind: 'contact', data: validContact }), AbortSignal.timeout(5000)),
    ).rejects.toThrow(new UpstreamError(`${destination.name} answered 503`));
  });

  it('does not follow a redirect: the 307 is the answer and the target receives nothing', async () => {
    const target = await startWebhookReceiver();
    const redirecting = await startWebhookReceiver({ extraHeaders: { location: target.url } });
    try {
      redirecting.answer = 307;
      const destination = createWebhookDestination(new URL(redirecting.url), open());
      await expect(
        destination.deliver(
          lead({ kind: 'contact', data: validContact }),
          AbortSignal.timeout(5000),
        ),
      ).rejects.toThrow(/answered 307/);
      expect(redirecting.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    } finally {
      await Promise.all([target.close(), redirecting.close()]);
    }
  });

  it('gives up on a receiver that never answers after WEBHOOK_TIMEOUT_MS', async () => {
    receiver.answer = 'hang';
    const destination = createWebhookDestination(
      new URL(receiver.url),
      open({ WEBHOOK_TIMEOUT_MS: '300' }),
    );
    const started = Date.now();
    await expect(
      destination.deliver(
        lead({ kind: 'contact', data: validContact }),
        AbortSignal.timeout(10_000),
      ),
    ).rejects.toThrow(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a receiver that is down is an UpstreamError (retried later by the dispatcher)', async () => {
    await receiver.stop();
    const destination = createWebhookDestination(new URL(receiver.url), open());
    await expect(
      destination.deliver(lead({ kind: 'contact', data: validContact }), AbortSignal.timeout(5000)),
    ).rejects.toThrow(UpstreamError);
  });
});

describe('webhooks: server-side request forgery guard (docs/webhooks.md)', () => {
  it('refuses a loopback address unless WEBHOOK_ALLOW_PRIVATE=true, and sends nothing', async () => {
    const guarded = open({ WEBHOOK_ALLOW_PRIVATE: 'false' });
    const literal = createWebhookDestination(new URL(receiver.url), guarded);
    const named = createWebhookDestination(
      new URL(receiver.url.replace('127.0.0.1', 'localhost')),
      guarded,
    );
    const contact = lead({ kind: 'contact', data: validContact });
    await expect(literal.deliver(contact, AbortSignal.timeout(5000))).rejects.toThrow(
      new ConfigurationError(
        '127.0.0.1 resolves to 127.0.0.1, a loopback, private or reserved address: refused (WEBHOOK_ALLOW_PRIVATE=true allows it)',
      ),
    );
    // A name is judged by the addresses it resolves to, not by how it reads.
    await expect(named.deliver(contact, AbortSignal.timeout(5000))).rejects.toThrow(
      /^localhost resolves to (127\.0\.0\.1|::1), a loopback.*WEBHOOK_ALLOW_PRIVATE=true/,
    );
    expect(receiver.received).toHaveLength(0);
  });
});

describe('webhooks: IPv6 destinations only in global unicast 2000::/3 (docs/webhooks.md)', () => {
  const port = () => new URL(receiver.url).port;
  for (const host of [
    '[::127.0.0.1]', // IPv4-compatible, read by URL as ::7f00:1
    '[::7f00:1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::ffff:10.0.0.1]',
    '[64:ff9b::7f00:1]', // NAT64 of 127.0.0.1
    '[64:ff9b::a9fe:a9fe]', // NAT64 of 169.254.169.254
    '[2002:7f00:1::1]', // 6to4 of 127.0.0.1
    '[fd00::1]',
    '[2001:db8::1]',
  ]) {
    it(`http://${host}/ is refused before any connection, unless WEBHOOK_ALLOW_PRIVATE=true`, async () => {
      const destination = createWebhookDestination(
        new URL(`http://${host}:${port()}/`),
        open({ WEBHOOK_ALLOW_PRIVATE: 'false' }),
      );
      await expect(
        destination.deliver(
          lead({ kind: 'contact', data: validContact }),
          AbortSignal.timeout(5000),
        ),
      ).rejects.toThrow(/a loopback, private or reserved address: refused/);
    });
  }

  it('a global unicast IPv6 address and a public IPv4 one pass the guard', () => {
    for (const address of [
      '2606:4700:4700::1111',
      '2a00:1450:4007:80e::200e',
      '8.8.8.8',
      '::ffff:8.8.8.8',
    ]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
  });
});

describe('docs/webhooks.md', () => {
  it('its node:crypto verification example accepts a genuine delivery and rejects a tampered one', async () => {
    const docs = readFileSync('docs/webhooks.md', 'utf8');
    const example = [...docs.matchAll(/```js\n([\s\S]*?)```/g)]
      .map((match) => match[1]!)
      .find((code) => code.includes('function verifyLeadgateWebhook'));
    const dir = mkdtempSync(join(tmpdir(), 'leadgate-docs-'));
    const file = join(dir, 'verify.mjs');
    writeFileSync(file, `${example}\nexport { verifyLeadgateWebhook };\n`);
    try {
      const { verifyLeadgateWebhook } = (await import(pathToFileURL(file).href)) as {
        verifyLeadgateWebhook: (body: string, headers: object, secret: string) => unknown;
      };
      const destination = createWebhookDestination(new URL(receiver.url), open());
      await destination.deliver(
        lead({ kind: 'contact', data: validContact }),
        AbortSignal.timeout(5000),
      );
      const { body, headers, event } = receiver.received[0]!;
      expect(verifyLeadgateWebhook(body, headers, TEST_WEBHOOK_SECRET)).toEqual(event);
      expect(() =>
        verifyLeadgateWebhook(body.replace('Marie', 'Maria'), headers, TEST_WEBHOOK_SECRET),
      ).toThrow('invalid signature');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
