import type { Email } from 'postal-mime';
import { afterEach, describe, expect, it } from 'vitest';
import { createIntake } from '../../../src/features/intake/intake.ts';
import { createNewsletterLinks } from '../../../src/features/newsletter/newsletter-links.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { outboxMails as outboxMailsOf } from '../../helpers/outbox.ts';
import { buildTestApp, validSubscribe, type TestApp } from '../../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../../helpers/fake-brevo.ts';
import { acceptLead, subscribeLead } from '../../helpers/test-stores.ts';

/*
 * docs/consent.md, "Double opt-in" and "Unsubscribe": a subscription joins the list only once the
 * person follows the signed link e-mailed to them (single use, 7 days); every newsletter e-mail
 * carries RFC 8058 one-click unsubscribe. Runs on PostgreSQL too (LEADGATE_TEST_DIALECT=postgres).
 */

let t: TestApp;
let fake: FakeBrevo | undefined;
afterEach(async () => {
  await t?.close();
  await fake?.close();
  fake = undefined;
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** The outbox's messages of one role, parsed as a mail client would. */
const outboxMails = (role: string) => outboxMailsOf(t.dataDir, role);

function header(mail: Email, name: string): string | undefined {
  return mail.headers.find((entry) => entry.key === name.toLowerCase())?.value;
}

/** The path and query of an absolute link of ours, for app.inject. */
const local = (url: string) => url.slice(t.config.siteUrl.length);

function linkIn(text: string, path: string): string {
  const match = new RegExp(`${t.config.siteUrl}${path}\\?jeton=[A-Za-z0-9._-]+`).exec(text);
  if (!match) throw new Error(`no ${path} link in ${text}`);
  return match[0];
}

const page = (url: string, method: 'GET' | 'POST' = 'GET') =>
  t.app.inject({
    method,
    url,
    ...(method === 'POST' && {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    }),
  });

function expectFrenchPage(
  response: Awaited<ReturnType<typeof page>>,
  status: number,
  title: RegExp,
) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.body).toContain('<html lang="fr">');
  expect(response.body).toMatch(title);
  expect(response.body).not.toMatch(/"success"|server_error|at .*\.ts:\d+/);
}

async function subscribeAndGetLinks(body: object = validSubscribe) {
  expect((await postJson(t.app, '/api/subscribe', body)).json()).toMatchObject({ success: true });
  const [mail] = await outboxMails('optin');
  expect(mail).toBeDefined();
  return {
    mail: mail!,
    confirm: linkIn(mail!.text ?? '', '/newsletter/confirmation'),
    unsubscribe: linkIn(mail!.text ?? '', '/newsletter/desinscription'),
  };
}

const subscribed = () => t.store.newsletter.isSubscribed(validSubscribe.email);

describe('double opt-in with the outbox (default: NEWSLETTER_DOUBLE_OPT_IN=true)', () => {
  it('the address is not on the list until the link is followed and its button pressed, and is after', async () => {
    t = await buildTestApp();
    const answer = await postJson(t.app, '/api/subscribe', validSubscribe);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({ success: true, existing: false });
    const [mail] = await outboxMails('optin');
    expect(mail!.to?.map((to) => to.address)).toEqual([validSubscribe.email]);
    expect(mail!.subject).toBe('Confirmez votre inscription à la newsletter');
    // docs/emails.md: to the unverified address, a first name made of letters only is repeated.
    expect(mail!.text).toContain(`Bonjour ${validSubscribe.firstName},`);
    expect(await subscribed()).toBe(false);

    const confirm = local(linkIn(mail!.text ?? '', '/newsletter/confirmation'));
    // A mail scanner opening the link confirms nothing: GET shows the button only.
    const shown = await page(confirm);
    expectFrenchPage(shown, 200, /Confirmez votre inscription/);
    expect(shown.body).toContain(`<form method="post" action="${confirm.replace('?', '?')}">`);
    expect(await subscribed()).toBe(false);

    expectFrenchPage(await page(confirm, 'POST'), 200, /votre inscription est confirmée/);
    expect(await subscribed()).toBe(true);
    const [row] = (await t.store.people.show(validSubscribe.email)).related
      .newsletter_confirmations!;
    expect(row).toMatchObject({ confirmed_network: '127.0.0.0/24', withdrawn_at: null });
  });

  it('the link is single-use: a second use gets the French « déjà servi » page (410)', async () => {
    t = await buildTestApp();
    const { confirm } = await subscribeAndGetLinks();
    expect((await page(local(confirm), 'POST')).statusCode).toBe(200);
    expectFrenchPage(await page(local(confirm), 'POST'), 410, /Ce lien a déjà servi/);
    expectFrenchPage(await page(local(confirm)), 410, /Ce lien a déjà servi/);
  });

  it('a tampered link is refused with a French page (400), GET and POST, and subscribes nobody', async () => {
    t = await buildTestApp();
    const { confirm } = await subscribeAndGetLinks();
    const last = confirm.at(-1) === 'A' ? 'B' : 'A';
    const tampered = local(confirm.slice(0, -1) + last);
    expectFrenchPage(await page(tampered), 400, /Ce lien n’est pas valable/);
    expectFrenchPage(await page(tampered, 'POST'), 400, /Ce lien n’est pas valable/);
    expectFrenchPage(await page('/newsletter/confirmation'), 400, /Ce lien n’est pas valable/);
    // An unsubscribe token does not confirm: each purpose has its own signature.
    const { unsubscribe } = await subscribeAndGetLinks();
    const crossed = local(unsubscribe).replace(
      '/newsletter/desinscription',
      '/newsletter/confirmation',
    );
    expectFrenchPage(await page(crossed, 'POST'), 400, /Ce lien n’est pas valable/);
    expect(await subscribed()).toBe(false);
  });

  it('a link older than 7 days is refused with a French page (410); 6 days old still confirms', async () => {
    t = await buildTestApp();
    const links = createNewsletterLinks(t.config.siteUrl, () => t.store.newsletter.signingKey());
    const old = subscribeLead(validSubscribe.email, new Date(Date.now() - 7 * DAY_MS - 60_000));
    const recent = subscribeLead('autre@example.fr', new Date(Date.now() - 6 * DAY_MS));
    await acceptLead(t.store, old);
    await acceptLead(t.store, recent);
    const expired = local(await links.url('confirm', old.id));
    expectFrenchPage(await page(expired), 410, /Ce lien a expiré/);
    expectFrenchPage(await page(expired, 'POST'), 410, /Ce lien a expiré/);
    expect(await subscribed()).toBe(false);
    expect((await page(local(await links.url('confirm', recent.id)), 'POST')).statusCode).toBe(200);
    expect(await t.store.newsletter.isSubscribed('autre@example.fr')).toBe(true);
  });

  it('a second subscription of an unconfirmed address within a day sends no second e-mail; after a day, one', async () => {
    t = await buildTestApp();
    let clock = new Date();
    const intake = createIntake({
      deliveries: t.store.deliveries,
      newsletter: { doubleOptIn: true, journal: t.store.newsletter },
      confirmationCap: { sends: t.store.confirmations, intervalMs: DAY_MS },
      dispatcher: t.app.dispatcher,
      mode: 'sync',
      now: () => clock,
    });
    const again = (firstName: string) =>
      intake.submit({ kind: 'subscribe', data: { ...validSubscribe, firstName } });
    // docs/consent.md, "What the answer says": each answer is true to the e-mail that leaves.
    expect(await again('Léa')).toMatchObject({ existing: false, confirmation: 'sent' });
    clock = new Date(clock.getTime() + DAY_MS - 60_000);
    expect(await again('Léa B.')).toMatchObject({ existing: true, confirmation: 'already_sent' });
    expect(await outboxMails('optin')).toHaveLength(1);
    clock = new Date(clock.getTime() + 2 * 60_000);
    expect(await again('Léa C.')).toMatchObject({ existing: true, confirmation: 'sent' });
    expect(await outboxMails('optin')).toHaveLength(2);
    // The agency hears of every request, capped or not.
    expect(await outboxMails('notification')).toHaveLength(3);
  });

  it('an address already on the list gets no new link when it subscribes again (existing: true)', async () => {
    t = await buildTestApp();
    const { confirm } = await subscribeAndGetLinks();
    await page(local(confirm), 'POST');
    const again = await postJson(t.app, '/api/subscribe', {
      ...validSubscribe,
      firstName: 'Léa B.',
    });
    expect(again.json()).toMatchObject({ success: true, existing: true });
    expect(await outboxMails('optin')).toHaveLength(1);
  });

  it('carries RFC 8058 List-Unsubscribe headers; a POST of List-Unsubscribe=One-Click unsubscribes, recorded in the journal', async () => {
    t = await buildTestApp();
    const { mail, confirm, unsubscribe } = await subscribeAndGetLinks();
    expect(header(mail, 'List-Unsubscribe')).toBe(`<${unsubscribe}>`);
    expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    await page(local(confirm), 'POST');
    expect(await subscribed()).toBe(true);

    // GET shows a page whose button works without JavaScript: a form posting to the same URL.
    const shown = await page(local(unsubscribe));
    expectFrenchPage(shown, 200, /Se désinscrire de la newsletter/);
    expect(shown.body).toMatch(
      /<form method="post" action="[^"]+"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Me désinscrire<\/button><\/form>/,
    );
    expect(await subscribed()).toBe(true);

    const done = await page(local(unsubscribe), 'POST');
    expectFrenchPage(done, 200, /Votre désinscription est enregistrée/);
    expect(await subscribed()).toBe(false);
    // A mail client may POST again: still a success.
    expect((await page(local(unsubscribe), 'POST')).statusCode).toBe(200);
    const [row] = (await t.store.people.show(validSubscribe.email)).related
      .newsletter_confirmations!;
    expect(row!.withdrawn_at).toEqual(expect.any(String));
    // The withdrawn request's link no longer subscribes.
    expectFrenchPage(await page(local(confirm), 'POST'), 410, /Ce lien a déjà servi/);
  });

  it('unsubscribing before confirming withdraws the request: its link no longer confirms', async () => {
    t = await buildTestApp();
    const { confirm, unsubscribe } = await subscribeAndGetLinks();
    expect((await page(local(unsubscribe), 'POST')).statusCode).toBe(200);
    expectFrenchPage(await page(local(confirm), 'POST'), 410, /Ce lien a déjà servi/);
    expect(await subscribed()).toBe(false);
  });

  it('NEWSLETTER_DOUBLE_OPT_IN=false keeps the single opt-in: no e-mail to the subscriber', async () => {
    t = await buildTestApp({ env: { NEWSLETTER_DOUBLE_OPT_IN: 'false' } });
    expect((await postJson(t.app, '/api/subscribe', validSubscribe)).json()).toMatchObject({
      success: true,
      existing: false,
      confirmation: 'not_needed',
    });
    expect(await outboxMails('optin')).toEqual([]);
    expect(await outboxMails('notification')).toHaveLength(1);
  });
});

describe('double opt-in with Brevo (the loopback stand-in)', () => {
  async function startBrevo(env: Record<string, string> = {}) {
    fake = await startFakeBrevo('k');
    t = await buildTestApp({
      env: {
        MAIL_PROVIDER: 'brevo',
        BREVO_API_KEY: 'k',
        BREVO_API_URL: fake.url,
        BREVO_NEWSLETTER_LIST_ID: '8',
        AGENCY_EMAIL: 'equipe@agence.example',
        ...env,
      },
    });
  }

  const optInMail = () =>
    fake!.sent.find((mail) => (mail.tags as string[]).includes('leadgate-optin')) as
      { htmlContent: string; textContent: string; headers: Record<string, string> } | undefined;

  it('no contact in the list until the link is followed; after, in list 8; RFC 8058 POST removes it', async () => {
    await startBrevo();
    expect((await postJson(t.app, '/api/subscribe', validSubscribe)).statusCode).toBe(200);
    expect(fake!.requestsTo('/contacts')).toEqual([]);
    expect(fake!.contacts.size).toBe(0);
    const mail = optInMail()!;
    const unsubscribe = linkIn(mail.textContent, '/newsletter/desinscription');
    expect(mail.headers['List-Unsubscribe']).toBe(`<${unsubscribe}>`);
    expect(mail.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    await page(local(linkIn(mail.textContent, '/newsletter/confirmation')), 'POST');
    expect(fake!.contacts.get(validSubscribe.email)?.listIds).toEqual([8]);

    expect((await page(local(unsubscribe), 'POST')).statusCode).toBe(200);
    expect(fake!.requestsTo('/contacts/lists/8/contacts/remove').map((r) => r.body)).toEqual([
      { emails: [validSubscribe.email] },
    ]);
    expect(fake!.contacts.get(validSubscribe.email)?.listIds).toEqual([]);
  });

  it('NEWSLETTER_DOUBLE_OPT_IN=false: the contact is created in the list on the request, no e-mail to it', async () => {
    await startBrevo({ NEWSLETTER_DOUBLE_OPT_IN: 'false' });
    await postJson(t.app, '/api/subscribe', validSubscribe);
    expect(fake!.contacts.get(validSubscribe.email)?.listIds).toEqual([8]);
    expect(optInMail()).toBeUndefined();
  });
});
