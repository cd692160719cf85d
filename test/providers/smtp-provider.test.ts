import { afterEach, describe, expect, it } from 'vitest';
import { expectApiError, postJson } from '../helpers/api-assertions.ts';
import {
  buildTestApp,
  validAudit,
  validContact,
  validSubscribe,
  type TestApp,
} from '../helpers/app.ts';
import {
  startSilentServer,
  startSmtpSink,
  unreachableSmtpUrl,
  type SmtpSink,
} from '../helpers/smtp-sink.ts';

const AGENCY = 'equipe@agence-test.fr';
const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

async function appSendingTo(smtpUrl: string, env: Record<string, string> = {}): Promise<TestApp> {
  const t = await buildTestApp({
    env: { MAIL_PROVIDER: 'smtp', SMTP_URL: smtpUrl, AGENCY_EMAIL: AGENCY, ...env },
  });
  cleanup.push(() => t.close());
  return t;
}

async function sink(options: Parameters<typeof startSmtpSink>[0] = {}): Promise<SmtpSink> {
  const started = await startSmtpSink(options);
  cleanup.push(() => started.close());
  return started;
}

describe('MAIL_PROVIDER=smtp sends the same e-mails to a real SMTP server (README, Configuration)', () => {
  it('contact: confirmation to EMAIL, notification to AGENCY_EMAIL with Reply-To, lead delivered', async () => {
    const smtp = await sink();
    const t = await appSendingTo(smtp.url);
    const response = await postJson(t.app, '/api/contact', validContact);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true });

    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([[validContact.EMAIL], [AGENCY]]);
    const [confirmation, notification] = smtp.received.map((mail) => mail.email);
    expect(confirmation!.subject).toBe('Nous avons bien reçu votre demande');
    expect(confirmation!.text).toMatch(/24\sheures ouvrées/u);
    expect(confirmation!.html).toContain('lang="fr"');
    // docs/emails.md: a summary of what was received, and how to have it deleted.
    expect(confirmation!.text).toContain('Ce que nous avons reçu');
    expect(confirmation!.html).toContain('/vos-donnees"');
    expect(notification!.subject).toMatch(/^Nouvelle demande de contact/);
    expect(notification!.replyTo?.[0]?.address).toBe(validContact.EMAIL);
    // docs/emails.md: the field under its French label, never its API name; both parts carried.
    expect(notification!.text).toContain(`Projet : ${validContact.DEMANDE}`);
    expect(notification!.text).not.toContain('DEMANDE');
    expect(notification!.html).toContain(validContact.DEMANDE);

    const [entry] = await t.store.list();
    expect(entry).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    expect(entry!.providerAnswer).toContain(confirmation!.messageId!);
  });

  it('the lead is journaled (pending) before the provider is called (journal first, docs/reliability.md)', async () => {
    // The SMTP server looks at the journal while the message is still arriving.
    const journal: { store?: TestApp['store'] } = {};
    const smtp = await sink({ onArrival: async () => (await journal.store!.list())[0]?.status });
    const t = await appSendingTo(smtp.url);
    journal.store = t.store;
    expect((await postJson(t.app, '/api/audit', validAudit)).statusCode).toBe(200);
    // The person's confirmation and the agency's notification (docs/emails.md).
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received[0]!.observed).toBe('pending');
    expect((await t.store.list())[0]?.status).toBe('delivered');
  });

  it('subscribe and audit: the agency is notified, a subscriber gets only the link to confirm, once; existing comes from the store', async () => {
    const smtp = await sink();
    const t = await appSendingTo(smtp.url);
    expect((await postJson(t.app, '/api/subscribe', validSubscribe)).json()).toMatchObject({
      success: true,
      existing: false,
    });
    const again = { ...validSubscribe, lastName: 'Martin' };
    expect((await postJson(t.app, '/api/subscribe', again)).json()).toMatchObject({
      success: true,
      existing: true,
    });
    expect((await postJson(t.app, '/api/audit', validAudit)).statusCode).toBe(200);
    // docs/consent.md: the link to confirm, with RFC 8058 one-click unsubscribe; the second
    // request of the same day sends none.
    const subscriber = validSubscribe.email;
    expect(smtp.received.map((mail) => mail.envelopeTo)).toEqual([
      [subscriber],
      [AGENCY],
      [AGENCY],
      [validAudit.email],
      [AGENCY],
    ]);
    const optIn = smtp.received[0]!.email;
    expect(optIn.subject).toBe('Confirmez votre inscription à la newsletter');
    const headers = Object.fromEntries(optIn.headers.map((entry) => [entry.key, entry.value]));
    expect(headers['list-unsubscribe']).toMatch(
      /^<http:\/\/.+\/newsletter\/desinscription\?jeton=.+>$/,
    );
    expect(headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(smtp.received[4]!.email.text).toContain('Une trentaine');
  });
});

describe('spec 7: an SMTP failure is 502 upstream_error and a failed journal row', () => {
  async function expectUpstreamFailure(t: TestApp) {
    const error = expectApiError(
      await postJson(t.app, '/api/contact', validContact),
      502,
      'upstream_error',
    );
    expect(error.hint).toMatch(/Réessayez/);
    const [entry] = await t.store.list();
    expect(entry).toMatchObject({ status: 'failed', attempts: 1 });
    expect(entry!.lead.data).toEqual(validContact);
    expect(entry!.lastError).toBeTruthy();
    return entry!;
  }

  it('the server refuses the recipients (550)', async () => {
    const smtp = await sink({ refuseRecipients: true });
    const entry = await expectUpstreamFailure(await appSendingTo(smtp.url));
    expect(entry.lastError).toMatch(/550|rejected/i);
    expect(smtp.received).toHaveLength(0);
  });

  it('nothing listens at SMTP_URL', async () => {
    const entry = await expectUpstreamFailure(await appSendingTo(await unreachableSmtpUrl()));
    expect(entry.lastError).toMatch(/ECONNREFUSED/);
  });

  it('the server never answers: 502 within PROVIDER_TIMEOUT_MS + 1 s', async () => {
    const silent = await startSilentServer();
    cleanup.push(() => silent.close());
    const t = await appSendingTo(silent.url, { PROVIDER_TIMEOUT_MS: '400' });
    const started = Date.now();
    await expectUpstreamFailure(t);
    expect(Date.now() - started).toBeLessThan(1400);
  });
});
