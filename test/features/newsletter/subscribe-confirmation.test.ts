import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { rewindConfirmationSends } from '../../helpers/raw-database.ts';

/*
 * docs/consent.md, "What the answer says": spec 2.4 keeps `success` and `existing`; the optional
 * `confirmation` tells where the address stands (`sent`, `already_sent`, `not_needed`), and each
 * answer is true to the e-mails that actually leave. A repeated request is flagged in the agency's
 * notification. Runs on PostgreSQL too (LEADGATE_TEST_DIALECT=postgres).
 */
let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** The outbox's messages of one role, in the order they were written. */
async function outboxMails(role: string): Promise<Email[]> {
  const directory = join(t.dataDir, 'outbox');
  const names = readdirSync(directory).filter((name) => name.endsWith(`-${role}.eml`));
  return Promise.all(
    names.sort().map((name) => PostalMime.parse(readFileSync(join(directory, name)))),
  );
}

const confirmLinks = async () =>
  (await outboxMails('optin')).map(
    (mail) => /\/newsletter\/confirmation\?jeton=[A-Za-z0-9._-]+/.exec(mail.text ?? '')![0],
  );

const subscribe = async (body: object) => {
  const response = await postJson(t.app, '/api/subscribe', body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { success: true; existing: boolean; confirmation: string };
};

const ADDRESS = 'pending@example.fr';

describe('confirmation for a new, a pending and a confirmed address (double opt-in)', () => {
  it('new: sent, one link; pending again within the cap: already_sent, no second e-mail, the notification says it is a repeat', async () => {
    t = await buildTestApp();
    expect(await subscribe({ email: ADDRESS, firstName: 'Léa' })).toEqual({
      success: true,
      existing: false,
      confirmation: 'sent',
    });
    expect(await confirmLinks()).toHaveLength(1);

    // The same body again is the same request, answered as the first (docs/reliability.md);
    // another body for the same address within 24 hours is told a link already went.
    expect(await subscribe({ email: ADDRESS, firstName: 'Léa' })).toEqual({
      success: true,
      existing: true,
      confirmation: 'sent',
    });
    expect(await subscribe({ email: ADDRESS, firstName: 'Léa', source: 'assistant' })).toEqual({
      success: true,
      existing: true,
      confirmation: 'already_sent',
    });
    expect(await confirmLinks()).toHaveLength(1);

    const notifications = (await outboxMails('notification')).map((mail) => mail.text ?? '');
    expect(notifications).toHaveLength(2);
    expect(notifications[0]).not.toMatch(/Demande répétée/);
    expect(notifications[1]).toMatch(/Demande répétée : cette adresse avait déjà demandé/);
  });

  it('pending, asking again once the per-mailbox cap has passed: sent, a fresh link that confirms', async () => {
    t = await buildTestApp();
    await subscribe({ email: ADDRESS, firstName: 'Léa' });
    // The first link went 25 hours ago (docs/reliability.md: one confirmation per address and 24 h).
    await rewindConfirmationSends(t.config, 25 * 60 * 60 * 1000);
    expect(await subscribe({ email: ADDRESS, firstName: 'Léa', source: 'relance' })).toEqual({
      success: true,
      existing: true,
      confirmation: 'sent',
    });
    const links = await confirmLinks();
    expect(links).toHaveLength(2);
    expect(links[1]).not.toBe(links[0]);
    const confirmed = await t.app.inject({ method: 'POST', url: links[1]! });
    expect(confirmed.statusCode).toBe(200);
    expect(await t.store.newsletter.isSubscribed(ADDRESS)).toBe(true);
  });

  it('confirmed: not_needed, and no link is e-mailed again', async () => {
    t = await buildTestApp();
    await subscribe({ email: ADDRESS, firstName: 'Léa' });
    const [link] = await confirmLinks();
    expect((await t.app.inject({ method: 'POST', url: link! })).statusCode).toBe(200);
    await rewindConfirmationSends(t.config, 25 * 60 * 60 * 1000);
    expect(await subscribe({ email: ADDRESS, firstName: 'Léa', source: 'encore' })).toEqual({
      success: true,
      existing: true,
      confirmation: 'not_needed',
    });
    expect(await confirmLinks()).toHaveLength(1);
  });

  it('without double opt-in (NEWSLETTER_DOUBLE_OPT_IN=false): not_needed, no link', async () => {
    t = await buildTestApp({ env: { NEWSLETTER_DOUBLE_OPT_IN: 'false' } });
    expect(await subscribe({ email: ADDRESS, firstName: 'Léa' })).toEqual({
      success: true,
      existing: false,
      confirmation: 'not_needed',
    });
    expect(await confirmLinks()).toHaveLength(0);
  });
});
