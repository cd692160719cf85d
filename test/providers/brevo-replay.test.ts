import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createIntake } from '../../src/domain/intake.ts';
import { createProvider } from '../../src/providers/create-provider.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';

/*
 * Issue 4 (asked of the Brevo adapter in issue 2): a lead whose delivery failed half-way is replayed
 * (`leadgate leads replay`) without a second confirmation, because every /smtp/email carries an
 * idempotency key derived from the lead and Brevo answers duplicate_parameter to a reused one.
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
      PROVIDER_TIMEOUT_MS: '500',
    },
  });
});
afterEach(async () => {
  await harness.close();
  await fake.close();
});

describe('Brevo replay sends each e-mail once (issue 4)', () => {
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
    const provider = createProvider(harness.config);
    const intake = createIntake({ store: harness.store, provider, timeoutMs: 500 });
    await intake.redeliver(failed!);
    await provider.close();

    const [entry] = await harness.store.list();
    expect(entry?.status).toBe('delivered');
    expect(entry?.providerAnswer).toContain('confirmation already sent');
    const confirmations = fake.sent.filter(
      (mail) => (mail.to as { email: string }[])[0]?.email === validContact.EMAIL,
    );
    expect(confirmations).toHaveLength(1);
    expect(fake.sent).toHaveLength(2);
    const keys = fake
      .requestsTo('/smtp/email')
      .map(
        (request) =>
          (request.body as { headers: { idempotencyKey: string } }).headers.idempotencyKey,
      );
    // confirmation, notification (refused), confirmation again (same key), notification again (same key)
    expect(keys).toHaveLength(4);
    expect(keys[2]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[1]);
  });
});
