import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createBotTrap } from '../../src/features/intake/forms/bot-trap.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';

/*
 * docs/api-decisions.md, "Bot trap": a form token has a maximum age (FORM_TOKEN_MAX_AGE_HOURS) and is
 * good for FORM_TOKEN_MAX_POSTS posts; beyond, and for a post only too fast, the lead is journaled
 * as `spam` with its reason (leads.spam_reason), never dropped, to be reviewed and released.
 */
let harness: TestApp | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function tokenServedAgo(app: TestApp, ms: number): Promise<string> {
  return createBotTrap(await app.store.secret('form-token'), { minFillMs: 0 }).issue(
    Date.now() - ms,
  );
}

const subscribe = (app: TestApp, email: string, token: string, website = '') =>
  app.app.inject({
    method: 'POST',
    url: '/api/subscribe',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    payload: new URLSearchParams({
      email,
      firstName: 'Léa',
      form_token: token,
      website,
    }).toString(),
  });

async function journal(app: TestApp) {
  const entries = await app.store.list();
  return new Map(
    entries.map((entry) => [
      (entry.lead.data as { email: string }).email,
      { status: entry.status, reason: entry.spamReason },
    ]),
  );
}

const notifications = (app: TestApp) => {
  const dir = join(app.dataDir, 'outbox');
  return existsSync(dir)
    ? readdirSync(dir).filter((file) => file.endsWith('-notification.eml'))
    : [];
};

describe('form tokens: age, replays and the reason of every catch', () => {
  it('one token posted 5 times: the first 3 delivered, the next 2 journaled as spam token_replayed', async () => {
    harness = await buildTestApp({ env: { MAIL_PROVIDER: 'outbox' } });
    const token = await tokenServedAgo(harness, 4_000);
    for (let i = 0; i < 5; i++) {
      expect((await subscribe(harness, `r${i}@example.fr`, token)).statusCode).toBe(200);
    }
    const entries = await journal(harness);
    expect([0, 1, 2].map((i) => entries.get(`r${i}@example.fr`))).toEqual(
      Array(3).fill({ status: 'delivered', reason: null }),
    );
    expect([3, 4].map((i) => entries.get(`r${i}@example.fr`))).toEqual(
      Array(2).fill({ status: 'spam', reason: 'token_replayed' }),
    );
    expect(notifications(harness)).toHaveLength(3);
  });

  it('a token older than FORM_TOKEN_MAX_AGE_HOURS is spam token_expired; younger, delivered', async () => {
    harness = await buildTestApp({
      env: { MAIL_PROVIDER: 'outbox', FORM_TOKEN_MAX_AGE_HOURS: '12' },
    });
    await subscribe(
      harness,
      'old@example.fr',
      await tokenServedAgo(harness, 12 * 3_600_000 + 5_000),
    );
    await subscribe(harness, 'day@example.fr', await tokenServedAgo(harness, 11 * 3_600_000));
    const entries = await journal(harness);
    expect(entries.get('old@example.fr')).toEqual({ status: 'spam', reason: 'token_expired' });
    expect(entries.get('day@example.fr')).toEqual({ status: 'delivered', reason: null });
  });

  it('too fast, honeypot, forged: each journaled as spam with its reason, none lost', async () => {
    harness = await buildTestApp({ env: { MAIL_PROVIDER: 'outbox' } });
    await subscribe(harness, 'fast@example.fr', await tokenServedAgo(harness, 0));
    await subscribe(harness, 'pot@example.fr', await tokenServedAgo(harness, 10_000), 'http://x');
    await subscribe(
      harness,
      'forged@example.fr',
      `${Math.floor(Date.now() / 1000) - 60}.${'A'.repeat(22)}`,
    );
    const entries = await journal(harness);
    expect(entries.get('fast@example.fr')).toEqual({ status: 'spam', reason: 'too_fast' });
    expect(entries.get('pot@example.fr')).toEqual({ status: 'spam', reason: 'honeypot' });
    expect(entries.get('forged@example.fr')).toEqual({ status: 'spam', reason: 'token_forged' });
    expect(notifications(harness)).toHaveLength(0);
  });
});
