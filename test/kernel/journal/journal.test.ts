import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/kernel/config.ts';
import { createStore } from '../../../src/wiring/create-store.ts';
import { expectApiError, postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validContact, validSubscribe, type TestApp } from '../../helpers/app.ts';
import { unreachableSmtpUrl } from '../../helpers/smtp-sink.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await buildTestApp({ env, dialect: 'sqlite' });
  cleanup.push(() => t.close());
  return t;
}

describe('every valid request is journaled before the answer (docs/reliability.md)', () => {
  it('a 200 means the lead is stored, delivered, with its payload, kind and time', async () => {
    const t = await app();
    const before = Date.now();
    expect((await postJson(t.app, '/api/contact', validContact)).statusCode).toBe(200);
    const entries = await t.store.list();
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    expect(entry!.lead.kind).toBe('contact');
    expect(entry!.lead.data).toEqual(validContact);
    expect(entry!.lead.receivedAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(entry!.providerAnswer).toMatch(
      /^agency-notification: <.+\.notification@localhost>; confirmation-email: <.+>$/,
    );
  });

  it('a refused request (400) is not journaled', async () => {
    const t = await app();
    expectApiError(await postJson(t.app, '/api/subscribe', { email: 'x' }), 400, 'missing_field');
    expect(await t.store.list()).toHaveLength(0);
  });

  it('a provider failure leaves the lead failed, with the reason (spec 7: 502)', async () => {
    const t = await app({ MAIL_PROVIDER: 'smtp', SMTP_URL: await unreachableSmtpUrl() });
    expectApiError(await postJson(t.app, '/api/subscribe', validSubscribe), 502, 'upstream_error');
    const [entry] = await t.store.list();
    expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
    expect(entry!.lead.data).toEqual(validSubscribe);
    expect(entry!.lastError).toMatch(/ECONNREFUSED/);
  });
});

describe('no lead is acknowledged unless it is journaled (docs/reliability.md)', () => {
  it('a journal that cannot be written gives 500 server_error, not a 200', async () => {
    const t = await app();
    await t.store.close();
    expectApiError(await postJson(t.app, '/api/subscribe', validSubscribe), 500, 'server_error');
    expect(readdirSync(t.dataDir)).not.toContain('outbox'); // nothing was sent either
  });
});

describe('the SQLite journal survives a restart (docs/reliability.md)', () => {
  it('close the app and the store, reopen the file in the same DATA_DIR: every lead is there', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'leadgate-restart-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const first = await buildTestApp({ env: { DATA_DIR: dataDir }, dialect: 'sqlite' });
    await postJson(first.app, '/api/contact', validContact);
    await postJson(first.app, '/api/subscribe', validSubscribe);
    const beforeRestart = await first.store.list();
    await first.close(); // removes its own temp dir, not DATA_DIR
    expect(existsSync(join(dataDir, 'leadgate.sqlite'))).toBe(true);

    const reopened = await createStore(loadConfig({ DATA_DIR: dataDir }));
    const afterRestart = await reopened.list();
    await reopened.close();
    expect(afterRestart).toEqual(beforeRestart);
    expect(afterRestart.map((entry) => [entry.lead.kind, entry.status]).sort()).toEqual([
      ['contact', 'delivered'],
      ['subscribe', 'delivered'],
    ]);

    // Known addresses are journaled too: after a restart the subscriber is still known.
    const second = await buildTestApp({ env: { DATA_DIR: dataDir }, dialect: 'sqlite' });
    cleanup.push(() => second.close());
    const again = await postJson(second.app, '/api/subscribe', validSubscribe);
    expect(again.json()).toMatchObject({ success: true, existing: true });
  });
});
