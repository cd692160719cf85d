import { Writable } from 'node:stream';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { exportLeads } from '../../src/cli/leads-commands.ts';
import { sqliteFile } from '../../src/wiring/create-store.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';

/** A key in no known format: only the literal masking of configured secrets can catch it. */
const API_KEY = 'plain-secret-0123456789';
const PHONE = '0612345678';

let harness: TestApp | undefined;
let brevo: FakeBrevo | undefined;
afterEach(async () => {
  await harness?.close();
  await brevo?.close();
  harness = brevo = undefined;
});

function collect(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

describe('a provider error is masked before the journal stores it and when export shows it', () => {
  it('masks the configured key literally, the address and the phone a provider echoes', async () => {
    brevo = await startFakeBrevo(API_KEY);
    // A 503 (retried), not a 400: a 400 is a refusal for good, the step `refused` (docs/delivery.md).
    brevo.script('/contacts', {
      status: 503,
      body: {
        code: 'invalid_parameter',
        message: `key ${API_KEY} refused for ${validContact.EMAIL} (tel ${PHONE})`,
      },
    });
    harness = await buildTestApp({
      env: {
        MAIL_PROVIDER: 'brevo',
        BREVO_API_KEY: API_KEY,
        BREVO_API_URL: brevo.url,
        BREVO_NEWSLETTER_LIST_ID: '8',
      },
    });
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...validContact, SMS: PHONE },
    });
    expect(response.statusCode).toBe(502);

    const [entry] = await harness.store.list();
    expect(entry?.status).toBe('failed');
    expect(entry?.lastError).toContain('[masqué] refused for m***@example.fr (tel ******78)');
    // The lead itself keeps its fields whole: it is the one place that must.
    expect(entry?.lead.data).toMatchObject({ EMAIL: validContact.EMAIL, SMS: PHONE });

    for (const format of ['json', 'csv'] as const) {
      const out = collect();
      await exportLeads(harness.config, format, out.stream);
      expect(out.text()).toContain('m***@example.fr');
      expect(out.text()).not.toContain(API_KEY);
    }
  });

  it('export masks a row journaled before masking existed', async () => {
    harness = await buildTestApp({ env: { BREVO_API_KEY: API_KEY }, dialect: 'sqlite' });
    await harness.app.inject({ method: 'POST', url: '/api/contact', payload: validContact });
    // As an older version wrote it: the raw text, straight into the row.
    const database = new SQLite(sqliteFile(harness.dataDir));
    database
      .prepare('UPDATE leads SET last_error = ?')
      .run(`Brevo said: api key ${API_KEY} invalid`);
    database.close();
    const out = collect();
    await exportLeads(harness.config, 'json', out.stream);
    expect(out.text()).toContain('Brevo said: api key [masqué] invalid');
    expect(out.text()).not.toContain(API_KEY);
  });
});
