import { afterEach, describe, expect, it, vi } from 'vitest';
import { acceptedContact } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../helpers/smtp-sink.ts';

/*
 * docs/delivery.md, « Dead »: a step that keeps failing ends `dead` after DELIVERY_MAX_ATTEMPTS, and
 * the agency gets one e-mail listing it, through the real SMTP path (nodemailer to `smtp-server`),
 * never one per attempt. The visitor's server answers 451 (try later) for ever: retried, then given up.
 */
const AGENCY = 'equipe@agence.example';
const MAX_ATTEMPTS = 3;

let sink: SmtpSink;
let harness: TestApp;

afterEach(async () => {
  await harness?.close();
  await sink?.close();
});

const alerts = () =>
  sink.received.filter((mail) => mail.email.subject?.includes('abandonné') ?? false);
const notifications = () =>
  sink.received.filter((mail) => !alerts().includes(mail) && mail.envelopeTo.includes(AGENCY));

const contactFrom = (email: string) => acceptedContact(harness.app, email);

async function waitForAlerts(count: number): Promise<ReceivedMail[]> {
  return vi.waitFor(
    () => {
      expect(alerts()).toHaveLength(count);
      return alerts();
    },
    { timeout: 30_000, interval: 100 },
  );
}

describe('the dead-letter alert over SMTP (docs/delivery.md)', () => {
  it('a visitor’s server that never accepts: retried, given up, one alert per batch of dead steps', async () => {
    sink = await startSmtpSink({
      recipientCode: (address) => (address.startsWith('injoignable') ? 451 : undefined),
    });
    harness = await buildTestApp({
      env: {
        DELIVERY: 'queued',
        MAIL_PROVIDER: 'smtp',
        SMTP_URL: sink.url,
        AGENCY_EMAIL: AGENCY,
        DELIVERY_RETRY_BASE_MS: '50',
        DELIVERY_RETRY_MAX_MS: '100',
        DELIVERY_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      },
      dispatch: true,
      // The dispatcher looks for dead steps to announce every 5 s in a server.
      dispatcherTimings: { alertCheckMs: 50 },
    });

    const first = await contactFrom('injoignable-1@example.fr');
    const [firstAlert] = await waitForAlerts(1);
    const firstSteps = await harness.store.deliveries.steps(first);
    expect(firstSteps.map((step) => [step.destination, step.status, step.attempts])).toEqual([
      ['agency-notification', 'done', 1],
      ['confirmation-email', 'dead', MAX_ATTEMPTS],
    ]);
    // Three attempts, one e-mail to the agency, naming the lead, the step and the cause.
    expect(firstAlert!.envelopeTo).toEqual([AGENCY]);
    expect(firstAlert!.email.text).toContain('Marie Dupont, reçue le');
    expect(firstAlert!.email.text).toContain(`/equipe/prospects/${first}`);
    expect(firstAlert!.email.text).toContain('l’e-mail de confirmation à la personne répond 451');
    expect(firstAlert!.email.text).toContain('confirmation-email, 3 essais');
    expect((await harness.store.find(first))?.status).toBe('dead');

    // A second lead dying later gets its own alert, which does not list the first one again.
    const second = await contactFrom('injoignable-2@example.fr');
    const [, secondAlert] = await waitForAlerts(2);
    expect(secondAlert!.email.text).toContain(`/equipe/prospects/${second}`);
    expect(secondAlert!.email.text).not.toContain(`/equipe/prospects/${first}`);
    expect(secondAlert!.email.subject).toBe('1 envoi abandonné : Marie Dupont');
    // The agency was notified of each lead once, whatever the retries of the confirmation.
    expect(notifications()).toHaveLength(2);
    expect(alerts()).toHaveLength(2);
  }, 60_000);
});
