import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { replayLeads } from '../../src/cli/delivery-commands.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';

/*
 * A lead whose delivery failed half-way is replayed (`leadgate leads replay`) without a second
 * confirmation: each step is journaled (docs/delivery.md), so a replay asks Brevo only for the steps
 * still open. (Every /smtp/email also carries an idempotency key derived from the lead and the role.)
 */
let fake: FakeBrevo;
let harness: TestApp;

beforeEach(async () => {
  fake = await startFakeBrevo('k');
  harness = await buildTestApp({
    env: {
      MAIL_PROVIDER: 'brevo',
      BREVO_API_KEY: 'k',
      BREVO_API_URL: fake.url,
      BREVO_NEWSLETTER_LIST_ID: '8',
      PROVIDER_TIMEOUT_MS: '5000',
    },
  });
});
afterEach(async () => {
  await harness.close();
  await fake.close();
});

describe('Brevo replay sends each e-mail once (docs/brevo.md)', () => {
  it('replays a lead whose notification was refused (credits ran out) after its confirmation went out', async () => {
    const agency = harness.config.mail.agencyEmail;
    fake.script('/smtp/email', (body) =>
      (body.to as { email: string }[])[0]?.email === agency
        ? { status: 402, body: { code: 'not_enough_credits', message: 'Not enough credits' } }
        : undefined,
    );
    const first = await harness.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: validContact,
    });
    expect(first.statusCode).toBe(502);
    const [failed] = await harness.store.list({ statuses: ['failed'] });
    expect(failed).toBeDefined();

    fake.script('/smtp/email', undefined);
    const counts = await replayLeads(harness.config, new PassThrough());
    expect(counts).toEqual({ delivered: 1, failed: 0 });

    const [entry] = await harness.store.list();
    expect(entry?.status).toBe('delivered');
    // The journal knew the confirmation was sent: it was not even asked of Brevo again, so no
    // reliance on Brevo's 30-minute idempotency window, however late the replay.
    const recipients = fake
      .requestsTo('/smtp/email')
      .map((request) => (request.body as { to: { email: string }[] }).to[0]?.email);
    expect(recipients).toEqual([validContact.EMAIL, agency, agency]);
    expect(fake.sent).toHaveLength(2);
    expect(fake.requestsTo('/contacts')).toHaveLength(1);

    // A second replay finds nothing to do.
    expect(await replayLeads(harness.config, new PassThrough())).toEqual({
      delivered: 0,
      failed: 0,
    });
    expect(fake.requests).toHaveLength(4);
  });
});
