import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliveryStatus } from '../../../src/cli/delivery-commands.ts';
import { acceptedContact } from '../../helpers/api-assertions.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../../helpers/fake-brevo.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';

/*
 * docs/delivery.md, « Alerts », and docs/brevo.md, « What Brevo's answers mean »: Brevo's answers
 * are read for what they mean. The account missing an attribute or a validated sender is a setting
 * to fix: the lead is not `delivered`, the agency gets exactly one alert naming the object in
 * Brevo's own words, and the leads go out by themselves once the account is fixed, with a recovery
 * note. An address Brevo refuses is `refused`: counted and shown, never `delivered`.
 */
const SENDER = 'bonjour@agence.fr';
const ATTRIBUTES = ['PRENOM', 'NOM', 'SMS', 'JOB_TITLE', 'TYPE_BESOIN', 'DEMANDE', 'TOOL_SOURCE'];
const ENOUGH_ATTEMPTS = 3;

let fake: FakeBrevo;
let harness: TestApp;
let hook: WebhookReceiver | undefined;

afterEach(async () => {
  await harness?.close();
  await fake?.close();
  await hook?.close();
  hook = undefined;
});

async function start(env: Record<string, string> = {}) {
  harness = await buildTestApp({
    env: {
      DELIVERY: 'queued',
      ...brevoStandInEnv(fake),
      MAIL_FROM: `Agence <${SENDER}>`,
      DELIVERY_RETRY_BASE_MS: '20',
      DELIVERY_RETRY_MAX_MS: '60',
      ...env,
    },
    dispatch: true,
    // The loop's rounds, driven fast: an alert check every 20 ms instead of every 5 s.
    dispatcherTimings: { pollMs: 20, alertCheckMs: 20 },
  });
}

const contact = (email: string) => acceptedContact(harness.app, email);

/** The e-mails Brevo accepted to send to the agency about alerts, by subject. */
const alertMails = (words: string) =>
  fake.sent.filter(
    (mail) =>
      (mail.tags as string[]).includes('leadgate-dead-letter-alert') &&
      String(mail.subject).includes(words),
  );

async function stepAttempts(leadIds: string[], destination: string): Promise<number[]> {
  const steps = await Promise.all(leadIds.map((id) => harness.store.deliveries.steps(id)));
  return steps.map((of) => of.find((step) => step.destination === destination)!.attempts);
}

describe('a Brevo account that misses an attribute (docs/brevo.md)', () => {
  it('not delivered, one alert naming the attribute, delivered once the attribute exists', async () => {
    fake = await startFakeBrevo('k');
    fake.account.attributes = new Set(ATTRIBUTES);
    fake.account.senders = new Set([SENDER]);
    await start();
    const ids = [
      await contact('a.attribut@example.fr'),
      await contact('b.attribut@example.fr'),
      await contact('c.attribut@example.fr'),
    ];

    // Every lead's CRM step has been tried and refused several times (rounds, not a sleep).
    await vi.waitFor(
      async () => {
        for (const attempts of await stepAttempts(ids, 'crm-contact')) {
          expect(attempts).toBeGreaterThanOrEqual(ENOUGH_ATTEMPTS);
        }
        expect(alertMails('bloquée')).toHaveLength(1);
      },
      { timeout: 20_000, interval: 50 },
    );
    for (const id of ids) expect((await harness.store.find(id))?.status).toBe('failed');
    const [alert] = alertMails('bloquée');
    expect(alert!.subject).toBe('Livraison bloquée : l’envoi vers le CRM Brevo répond 400');
    expect(alert!.textContent).toContain('Attribute SERVICE not found');
    expect(alert!.textContent).toContain('l’attribut SERVICE : le créer dans Brevo');
    expect(alert!.textContent).toContain('3 demandes attendent');
    // The state the workspace's banner reads: one cause, counted, with Brevo's words.
    const open = await harness.store.alerts.open();
    expect(open.map((cause) => cause.key)).toEqual(['brevo:attribute:SERVICE']);
    expect(open[0]!.count).toBeGreaterThanOrEqual(ids.length);

    fake.account.attributes.add('SERVICE');
    await vi.waitFor(
      async () => {
        for (const id of ids) expect((await harness.store.find(id))?.status).toBe('delivered');
        expect(alertMails('fonctionne de nouveau')).toHaveLength(1);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(alertMails('bloquée')).toHaveLength(1);
    expect(await harness.store.alerts.open()).toEqual([]);
    expect(fake.contacts.get('a.attribut@example.fr')?.attributes.SERVICE).toBe(
      validContact.SERVICE,
    );
  }, 60_000);
});

describe('a sender Brevo has not validated (docs/brevo.md)', () => {
  it('the e-mails wait, one alert through ALERT_WEBHOOK_URL, delivered once validated', async () => {
    fake = await startFakeBrevo('k');
    fake.account.senders = new Set(['quelqu.un@autre.fr']);
    hook = await startWebhookReceiver();
    await start({ ALERT_WEBHOOK_URL: hook.url });
    const ids = [
      await contact('a.expediteur@example.fr'),
      await contact('b.expediteur@example.fr'),
    ];

    await vi.waitFor(
      async () => {
        for (const attempts of await stepAttempts(ids, 'agency-notification')) {
          expect(attempts).toBeGreaterThanOrEqual(ENOUGH_ATTEMPTS);
        }
        expect(hook!.received).toHaveLength(1);
      },
      { timeout: 20_000, interval: 50 },
    );
    for (const id of ids) expect((await harness.store.find(id))?.status).toBe('failed');
    // The agency's own e-mail path is what fails: the alert went by the other channel only,
    // as Slack/Mattermost read it, and said what to fix in Brevo's words.
    const { text } = JSON.parse(hook.received[0]!.body) as { text: string };
    expect(text).toContain('MAIL_FROM : l’expéditeur doit être validé dans Brevo');
    expect(text).toContain('Sending has been rejected because the sender you used');
    expect(text).not.toMatch(/(could not send).*\1/);
    expect(fake.sent).toEqual([]);

    fake.account.senders.add(SENDER);
    await vi.waitFor(
      async () => {
        for (const id of ids) expect((await harness.store.find(id))?.status).toBe('delivered');
        expect(hook!.received).toHaveLength(2);
      },
      { timeout: 20_000, interval: 50 },
    );
    expect(JSON.parse(hook.received[1]!.body).text).toContain('fonctionne de nouveau');
    expect(await harness.store.alerts.open()).toEqual([]);
  }, 60_000);
});

describe('an address Brevo refuses (docs/delivery.md, « Lead status »)', () => {
  it('is `refused`, counted in leads status and /metrics, listed with its reason, no alert', async () => {
    fake = await startFakeBrevo('k');
    fake.account.refusedAddresses.add('refusee@example.fr');
    await start({ METRICS_TOKEN: 'metrics-token-of-24-characters-at-least' });
    const id = await contact('refusee@example.fr');

    await vi.waitFor(async () => expect((await harness.store.find(id))?.status).toBe('refused'), {
      timeout: 20_000,
      interval: 50,
    });
    const steps = await harness.store.deliveries.steps(id);
    expect(steps.map((step) => [step.destination, step.status])).toEqual([
      ['agency-notification', 'done'],
      ['confirmation-email', 'refused'],
      ['crm-contact', 'refused'],
    ]);
    const [entry] = await harness.store.list({ statuses: ['refused'] });
    expect(entry!.lastError).toContain(
      'crm-contact: RefusedError: Brevo could not save the contact',
    );
    expect(entry!.lastError).toContain('Invalid email address');

    const out = new PassThrough();
    let printed = '';
    out.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    const status = await deliveryStatus(harness.config, out);
    expect(status.refused).toBe(2);
    expect(status.leads.refused).toBe(1);
    expect(printed).toMatch(/crm-contact \(brevo\) .* refusées 1/);
    expect(printed).toContain('refused 1, delivered 0');

    const metrics = await harness.app.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer metrics-token-of-24-characters-at-least' },
    });
    expect(metrics.body).toMatch(/^leadgate_refused_steps 2$/m);
    expect(await harness.store.alerts.open()).toEqual([]);
  }, 30_000);
});

describe('what a Brevo alert names (docs/delivery.md, « Alerts »)', () => {
  it('« Attribute not found » without a name: the attributes sent, never « NOT »', async () => {
    fake = await startFakeBrevo('k');
    fake.script('/contacts', {
      status: 400,
      body: { code: 'invalid_parameter', message: 'Attribute not found' },
    });
    await start();
    await contact('sans-nom@example.fr');
    await vi.waitFor(
      async () => expect((await harness.store.alerts.open()).map((a) => a.key)).toHaveLength(1),
      { timeout: 20_000, interval: 20 },
    );
    const [alert] = await harness.store.alerts.open();
    expect(alert!.fix).not.toContain('NOT');
    expect(alert!.fix).toMatch(
      /^l’un des attributs PRENOM, NOM, [A-Z_, ]+ \(« leadgate config check » dit lequel manque\) : le créer dans Brevo/,
    );
    expect(alert!.fix).toContain('« leadgate config check » dit lequel manque');
  });

  it('a key Brevo refuses (401): one cause holding the contact, the notification and the confirmation', async () => {
    fake = await startFakeBrevo('une-autre-clé');
    await start();
    await contact('cle@example.fr');
    await vi.waitFor(
      async () => {
        const [alert] = await harness.store.alerts.open();
        expect(alert?.key).toBe('brevo:api-key');
        expect([...alert!.holds].sort()).toEqual(
          expect.arrayContaining(['agency-notification', 'confirmation-email', 'crm-contact']),
        );
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(await harness.store.alerts.open()).toHaveLength(1);
  });
});
