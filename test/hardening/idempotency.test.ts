import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startIdempotencySweep } from '../../src/features/intake/idempotency-sweep.ts';
import { createIntake } from '../../src/features/intake/intake.ts';
import { buildTestApp, validAudit, validContact, type TestApp } from '../helpers/app.ts';
import { hasPostgres, type TestDialect } from '../helpers/postgres-databases.ts';
import { ObservedProvider } from './test-providers.ts';

const dialects: TestDialect[] = hasPostgres() ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(dialects)('Idempotency-Key (%s journal) (docs/reliability.md)', (dialect) => {
  let testApp: TestApp | undefined;
  let provider: ObservedProvider;
  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  async function start(env: Record<string, string> = {}) {
    testApp = await buildTestApp({
      env,
      dialect,
      provider: (config, journal) => (provider = new ObservedProvider(config, journal)),
    });
    return testApp.app;
  }

  const send = (key: string | undefined, payload: object, url = '/api/contact') =>
    testApp!.app.inject({
      method: 'POST',
      url,
      payload,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });

  it('answers the same key and body again without a second hand-off or journal entry', async () => {
    await start();
    const first = await send('key-1', validContact);
    const again = await send('key-1', { ...validContact });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(provider.calls).toBe(1);
    expect(await testApp!.store.list()).toHaveLength(1);
    // Without a key, the same body to the same endpoint within 24 h is the same lead too
    // (docs/api-decisions.md): a person resubmitting gets no second confirmation.
    await send(undefined, validContact);
    await send(undefined, validContact);
    expect(await testApp!.store.list()).toHaveLength(1);
    expect(provider.calls).toBe(1);
    await send(undefined, { ...validContact, DEMANDE: 'Une autre demande.' });
    expect(await testApp!.store.list()).toHaveLength(2);
  });

  it('replays the first `existing` flag and the 303 of a form', async () => {
    const app = await start();
    const audit = { ...validAudit, formData: undefined };
    expect((await send('a', audit, '/api/audit')).json()).toMatchObject({
      success: true,
      existing: false,
    });
    expect((await send('b', audit, '/api/audit')).json()).toMatchObject({
      success: true,
      existing: true,
    });
    expect((await send('a', audit, '/api/audit')).json()).toMatchObject({
      success: true,
      existing: false,
    });
    const form = () =>
      app.inject({
        method: 'POST',
        url: '/api/subscribe',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'idempotency-key': 'form-1',
        },
        payload: 'email=lea%40example.fr&firstName=L%C3%A9a',
      });
    const [one, two] = [await form(), await form()];
    expect([one.statusCode, two.statusCode]).toEqual([303, 303]);
    expect(two.headers.location).toBe('/newsletter/merci');
    // The audit under key `b` had the body of `a`: the same lead, delivered once.
    expect(provider.calls).toBe(2);
  });

  it('refuses the same key with another body: 409 idempotency_conflict, nothing delivered', async () => {
    await start();
    await send('key-2', validContact);
    const other = await send('key-2', { ...validContact, DEMANDE: 'Autre chose.' });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ success: false, error: { code: 'idempotency_conflict' } });
    expect(provider.calls).toBe(1);
  });

  it('scopes a key to its endpoint: the same key elsewhere is another request', async () => {
    await start();
    expect((await send('shared', validContact)).statusCode).toBe(200);
    const audit = await send('shared', validAudit, '/api/audit');
    expect(audit.statusCode).toBe(200);
    expect(audit.json()).toMatchObject({ success: true, existing: false });
    expect(provider.calls).toBe(2);
    expect((await testApp!.store.list()).map((entry) => entry.lead.kind).sort()).toEqual([
      'audit',
      'contact',
    ]);
    // Each endpoint still replays its own first answer.
    expect((await send('shared', validAudit, '/api/audit')).statusCode).toBe(200);
    expect((await send('shared', { ...validContact, NOM: 'Autre' })).statusCode).toBe(409);
    expect(provider.calls).toBe(2);
  });

  it('sweeps expired keys on a schedule, used again or not', async () => {
    await start();
    await send('old', validContact);
    await send('fresh', validAudit, '/api/audit');
    const store = testApp!.store;
    const later = Date.now() + 24 * 3600_000 + 60_000;
    // A key created just now is not swept by a sweep of now.
    expect(await store.idempotency.sweep(new Date(Date.now() - 24 * 3600_000))).toBe(0);
    const errors: unknown[] = [];
    const sweep = startIdempotencySweep(store, {
      everyMs: 20,
      now: () => new Date(later),
      onError: (error) => errors.push(error),
    });
    try {
      await vi.waitFor(
        async () => {
          // Swept: the key is free again, so another body is a new request rather than a 409.
          expect((await send('old', { ...validContact, NOM: 'Autre' })).statusCode).toBe(200);
        },
        { timeout: 5000, interval: 50 },
      );
    } finally {
      sweep.stop();
    }
    expect(errors).toEqual([]);
  });

  it('refuses a malformed key with 400 invalid_field', async () => {
    await start();
    for (const key of ['', 'with space', 'é', 'x'.repeat(256)]) {
      const response = await send(key, validContact);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe('invalid_field');
      expect(response.json().error.message).toContain('Idempotency-Key');
    }
    expect(provider.calls).toBe(0);
  });

  it('lets concurrent requests with one key journal and deliver a single lead', async () => {
    await start();
    provider.delayMs = 200;
    const answers = await Promise.all(Array.from({ length: 8 }, () => send('race', validContact)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(8).fill(200));
    expect(provider.calls).toBe(1);
    expect(await testApp!.store.list()).toHaveLength(1);
    const outbox = readdirSync(join(testApp!.dataDir, 'outbox'));
    expect(outbox.filter((file) => file.endsWith('-confirmation.eml'))).toHaveLength(1);
  });

  it('after a 502, a retry with the same key re-delivers the same lead (no duplicate)', async () => {
    await start();
    provider.failNext = 1;
    const failed = await send('retry-me', validContact);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.hint).toContain('Idempotency-Key');
    const [entry] = await testApp!.store.list();
    expect(entry?.status).toBe('failed');

    const retried = await send('retry-me', validContact);
    expect(retried.statusCode).toBe(200);
    const entries = await testApp!.store.list();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    expect(entries[0]?.lead.id).toBe(entry?.lead.id);
    expect((await send('retry-me', validContact)).statusCode).toBe(200);
    // Only the step that failed was tried again (docs/delivery.md).
    expect(Object.fromEntries(provider.stepCalls)).toEqual({
      'confirmation-email': 2,
      'agency-notification': 1,
    });
  });

  it('a key survives a restart of the server', async () => {
    await start();
    await send('durable', validContact);
    const { dataDir, config } = testApp!;
    await testApp!.app.close();
    await testApp!.store.close();
    testApp = undefined;

    const env: Record<string, string> = { DATA_DIR: dataDir };
    if (config.databaseUrl) env.DATABASE_URL = config.databaseUrl;
    testApp = await buildTestApp({
      env,
      dialect: 'sqlite',
      provider: (next, journal) => (provider = new ObservedProvider(next, journal)),
    });
    expect((await send('durable', validContact)).statusCode).toBe(200);
    expect((await send('durable', { ...validContact, NOM: 'Autre' })).statusCode).toBe(409);
    expect(provider.calls).toBe(0);
    expect(await testApp.store.list()).toHaveLength(1);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('forgets a key after 24 hours', async () => {
    await start();
    let clock = new Date('2026-11-22T10:00:00Z');
    const service = createIntake({
      deliveries: testApp!.store.deliveries,
      newsletter: { doubleOptIn: true, journal: testApp!.store.newsletter },
      dispatcher: testApp!.app.dispatcher,
      mode: 'sync',
      now: () => clock,
    });
    const request = { kind: 'contact', data: validContact } as const;
    await service.submit(request, { callerKey: 'daily' });
    clock = new Date('2026-11-23T09:59:00Z');
    await service.submit(request, { callerKey: 'daily' });
    expect(provider.calls).toBe(1);
    clock = new Date('2026-11-23T10:00:01Z');
    await service.submit(
      { kind: 'contact', data: { ...validContact, NOM: 'Neuf' } },
      { callerKey: 'daily' },
    );
    expect(provider.calls).toBe(2);
  });
});

describe('Idempotency-Key in /openapi.json (docs/reliability.md)', () => {
  it('documents the header on each operation and the 409', async () => {
    const testApp = await buildTestApp();
    try {
      const document = (await testApp.app.inject('/openapi.json')).json();
      for (const path of ['/api/contact', '/api/subscribe', '/api/audit']) {
        const operation = document.paths[path].post;
        expect(operation.parameters).toContainEqual(
          expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false }),
        );
        expect(operation.responses['409'].description).toContain('idempotency_conflict');
      }
    } finally {
      await testApp.close();
    }
  });
});
