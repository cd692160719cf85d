import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, validContact, validSubscribe, type TestApp } from '../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';

/*
 * spec 7: when Brevo refuses, fails, babbles or stays silent, the caller gets 502
 * upstream_error, the journal keeps the lead as `failed` with what Brevo answered, and the API key
 * appears nowhere. An incomplete configuration is a 500 server_error.
 */
let fake: FakeBrevo;
let harness: TestApp | undefined;

async function start(env: Record<string, string> = {}) {
  harness = await buildTestApp({
    env: {
      MAIL_PROVIDER: 'brevo',
      BREVO_API_KEY: 'k',
      BREVO_API_URL: fake.url,
      // One deadline for the lead's three steps in sync mode, each drawing on the rate budget.
      PROVIDER_TIMEOUT_MS: '2000',
      BREVO_NEWSLETTER_LIST_ID: '8',
      ...env,
    },
  });
  return harness;
}

async function submitContact() {
  const response = await harness!.app.inject({
    method: 'POST',
    url: '/api/contact',
    payload: validContact,
  });
  const [entry] = await harness!.store.list();
  return { response, entry };
}

beforeEach(async () => {
  fake = await startFakeBrevo('k');
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await fake.close();
});

describe('Brevo provider failures → 502 upstream_error, journal `failed` (spec 7, docs/brevo.md)', () => {
  it('a rejected API key (401 unauthorized) is kept in the journal, the key is not', async () => {
    await start({ BREVO_API_KEY: 'xkeysib-secret-value' });
    const { response, entry } = await submitContact();

    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('upstream_error');
    expect(fake.requestsTo('/contacts')[0]?.headers['api-key']).toBe('xkeysib-secret-value');
    expect(entry?.status).toBe('failed');
    expect(entry?.lastError).toContain('401 unauthorized');
    expect(entry?.lastError).not.toContain('xkeysib-secret-value');
    expect(response.body).not.toContain('xkeysib');
    // Each step is tried on its own (docs/delivery.md): the contact and both e-mails, all refused.
    expect(fake.requests.map((request) => request.path)).toEqual([
      '/contacts',
      '/smtp/email',
      '/smtp/email',
    ]);
    expect(fake.sent).toEqual([]);
  });

  it('a 5xx on /contacts, retried once as Brevo’s SDK does, fails that step only: the e-mails go', async () => {
    await start();
    fake.script('/contacts', {
      status: 503,
      body: { code: 'service_unavailable', message: 'try later' },
    });
    const { response, entry } = await submitContact();

    expect(response.statusCode).toBe(502);
    expect(response.json().error.code).toBe('upstream_error');
    expect(entry?.status).toBe('failed');
    expect(entry?.lastError).toContain('503');
    expect(fake.requestsTo('/contacts')).toHaveLength(2);
    expect(fake.sent).toHaveLength(2);
    const steps = await harness!.store.deliveries.steps(entry!.lead.id);
    expect(steps.map((step) => [step.destination, step.status])).toEqual([
      ['agency-notification', 'done'],
      ['confirmation-email', 'done'],
      ['crm-contact', 'retrying'],
    ]);
  });

  it('one passing 5xx or 429 is absorbed by the retry', async () => {
    // Single opt-in: the subscription's contact call is made on the request (docs/consent.md).
    await start({ NEWSLETTER_DOUBLE_OPT_IN: 'false' });
    const refusals = [
      { status: 429, body: { code: 'too_many_requests', message: 'slow down' } },
      undefined, // the retry of the contact
      { status: 502 },
    ];
    fake.script('/contacts', () => refusals.shift());
    const first = await submitContact();
    const second = await harness!.app.inject({
      method: 'POST',
      url: '/api/subscribe',
      payload: validSubscribe,
    });

    expect(first.response.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(fake.requestsTo('/contacts')).toHaveLength(4);
    expect((await harness!.store.list()).map((entry) => entry.status)).toEqual([
      'delivered',
      'delivered',
    ]);
  });

  it('a 5xx without a body on /smtp/email fails the lead', async () => {
    await start();
    fake.script('/smtp/email', { status: 500 });
    const { response, entry } = await submitContact();

    expect(response.statusCode).toBe(502);
    expect(entry?.status).toBe('failed');
    expect(entry?.lastError).toMatch(/confirmation.*500/);
  });

  it('no answer: 502 within PROVIDER_TIMEOUT_MS, not a hung request', async () => {
    await start({ PROVIDER_TIMEOUT_MS: '500' });
    fake.script('/contacts', 'hang');
    const started = performance.now();
    const { response, entry } = await submitContact();

    expect(response.statusCode).toBe(502);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(entry?.status).toBe('failed');
    expect(entry?.lastError).toMatch(/500 ms/);
  });

  it('a 2xx whose body is not JSON is not taken for success', async () => {
    await start();
    fake.script('/contacts', 'garbage');
    const { response, entry } = await submitContact();

    expect(response.statusCode).toBe(502);
    expect(entry?.lastError).toContain('not JSON');
  });

  it('nobody listening at BREVO_API_URL', async () => {
    const port = await closedPort();
    await start({ BREVO_API_URL: `http://127.0.0.1:${port}` });
    const { response, entry } = await submitContact();

    expect(response.statusCode).toBe(502);
    expect(entry?.status).toBe('failed');
    expect(entry?.lastError).toContain('no answer');
  });

  it('a phone Brevo refuses costs the phone, not the lead', async () => {
    await start();
    fake.script('/contacts', (body) =>
      (body.attributes as Record<string, unknown>).SMS
        ? {
            status: 400,
            body: {
              code: 'duplicate_parameter',
              message: 'Unable to create contact, SMS is already associated with another Contact',
              metadata: { duplicate_identifiers: ['SMS'] },
            },
          }
        : undefined,
    );
    const { response, entry } = await harness!.app
      .inject({
        method: 'POST',
        url: '/api/contact',
        payload: { ...validContact, SMS: '612345678', SMS__COUNTRY_CODE: '+33' },
      })
      .then(async (response) => ({ response, entry: (await harness!.store.list())[0] }));

    expect(response.statusCode).toBe(200);
    expect(entry?.status).toBe('delivered');
    const attempts = fake
      .requestsTo('/contacts')
      .map((request) => request.body as { attributes: object });
    expect(attempts).toHaveLength(2);
    expect(attempts[0]?.attributes).toHaveProperty('SMS', '+33612345678');
    expect(attempts[1]?.attributes).not.toHaveProperty('SMS');
  });
});

/** A port that was free a moment ago: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
