import { afterEach, describe, expect, it, vi } from 'vitest';
import { emailOf } from '../../../src/kernel/lead/lead.ts';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import {
  startWebhookReceiver,
  TEST_WEBHOOK_SECRET,
  type WebhookReceiver,
} from '../../helpers/webhook-receiver.ts';
import { activeMember, FAST_SCRYPT, ORIGIN, signIn } from '../staff/staff-session.ts';

/*
 * docs/delivery.md, « Alerts », and docs/workspace.md, « Bandeau »: a destination that keeps failing
 * is told to the agency once, in its mail layout and in French, naming each lead it holds with a
 * link to the lead's page (where « Relancer » is); while the cause is open, every workspace page
 * carries a one-line banner, gone once the destination answers again.
 */
const AGENCY = 'equipe@agence.example';

let receiver: WebhookReceiver;
let sink: SmtpSink;
let t: TestApp | undefined;

afterEach(async () => {
  await t?.close();
  t = undefined;
  await Promise.all([receiver?.close(), sink?.close()]);
});

const mailsTitled = (start: string) =>
  sink.received.filter((mail) => mail.email.subject?.startsWith(start) ?? false);

describe('a delivery alert a person can act on (docs/delivery.md, « Alerts »)', () => {
  it('a webhook answering 500: one French alert naming each lead with a working link, a banner until the cause closes', async () => {
    [receiver, sink] = await Promise.all([startWebhookReceiver(), startSmtpSink()]);
    receiver.answer = 500;
    t = await buildTestApp({
      env: {
        DELIVERY: 'queued',
        MAIL_PROVIDER: 'smtp',
        SMTP_URL: sink.url,
        AGENCY_EMAIL: AGENCY,
        WEBHOOK_URLS: receiver.url,
        WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        DELIVERY_RETRY_BASE_MS: '50',
        DELIVERY_RETRY_MAX_MS: '200',
        // Retried while the test looks: the steps wait, none is given up.
        DELIVERY_MAX_ATTEMPTS: '1000',
      },
      dispatch: true,
      dispatcherTimings: { pollMs: 20, alertCheckMs: 50 },
      passwordCost: FAST_SCRYPT,
    });
    const { app, store } = t;
    for (const [first, last] of [
      ['Marie', 'Dupont'],
      ['Paul', 'Martin'],
    ]) {
      const email = `${first!.toLowerCase()}@example.fr`;
      const answer = await app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { ...validContact, PRENOM: first, NOM: last, EMAIL: email },
      });
      expect(answer.statusCode).toBe(200);
    }
    const ids = new Map(
      (await store.list()).map((entry) => [emailOf(entry.lead), entry.lead.id] as const),
    );

    const [alert] = await vi.waitFor(
      () => {
        const alerts = mailsTitled('Livraison bloquée');
        expect(alerts).toHaveLength(1);
        return alerts;
      },
      { timeout: 30_000, interval: 100 },
    );
    const { subject, text, html } = alert!.email;
    expect(subject).toBe('Livraison bloquée : le webhook vers 127.0.0.1 répond 500');
    expect(alert!.envelopeTo).toEqual([AGENCY]);
    // The agency's mail layout: its name in the header band, its address in the footer.
    const identity = mailIdentity();
    expect(html).toContain(identity.agencyName);
    expect(text).toContain(identity.address);
    expect(text).toMatch(/depuis le \d+ \S+ 2026 à \d+\sh\s\d\d \(heure de Paris\)/);
    for (const [name, email] of [
      ['Marie Dupont', 'marie@example.fr'],
      ['Paul Martin', 'paul@example.fr'],
    ]) {
      expect(text).toContain(`${name}, reçue le`);
      expect(html).toContain(`href="${ORIGIN}/equipe/prospects/${ids.get(email!)}"`);
    }
    expect(text).toContain('Ce qu’il faut vérifier');
    expect(text).toContain('l’outil qui reçoit le webhook (127.0.0.1) est en marche');
    expect(text).not.toContain('leads replay');
    expect(text).not.toMatch(/\d{4}-\d\d-\d\dT/);

    // The link opens the lead's page, with « Relancer » on its waiting step.
    await activeMember(app, store, 'anne@agence.example');
    const { cookie } = await signIn(app, 'anne@agence.example');
    const link = new URL(`${ORIGIN}/equipe/prospects/${ids.get('marie@example.fr')}`);
    const leadPage = await app.inject({ url: link.pathname, headers: { cookie } });
    expect(leadPage.statusCode).toBe(200);
    expect(leadPage.body).toContain('Relancer');

    // The banner, one line on every page, while the cause is open.
    const inbox = () => app.inject({ url: '/equipe', headers: { cookie } });
    const banner =
      /<div class="workspace-notice" role="status"><p><span>([^<]*)<\/span> — <a href="([^"]+)">Voir<\/a>/;
    const [, words, href] = banner.exec((await inbox()).body) ?? [];
    expect(words).toMatch(
      /^2 envois en attente : le webhook vers 127\.0\.0\.1 répond 500 depuis \d\d\sh\s\d\d$/,
    );
    expect(href).toBe('/equipe/tableau-de-bord');
    expect((await app.inject({ url: href!, headers: { cookie } })).body).toMatch(banner);

    // The receiver answers again: the cause heals, the banner goes, a recovery note is sent.
    receiver.answer = 200;
    await expect
      .poll(async () => (await inbox()).body, { timeout: 30_000, interval: 100 })
      .not.toContain('workspace-notice');
    await vi.waitFor(() => expect(mailsTitled('Livraison rétablie')).toHaveLength(1), {
      timeout: 30_000,
      interval: 100,
    });
    expect(mailsTitled('Livraison bloquée')).toHaveLength(1);
  }, 90_000);
});
