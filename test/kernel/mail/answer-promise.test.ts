import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntake } from '../../../src/features/intake/intake.ts';
import { parseBusinessHours } from '../../../src/features/inbox/business-hours.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact, type TestApp } from '../../helpers/app.ts';
import { outboxMails } from '../../helpers/outbox.ts';

/*
 * docs/emails.md, "The answer promised": the confirmation e-mail and the API's answer give the day
 * and time by which the team answers (24 business hours, BUSINESS_HOURS 09:00–18:00, Paris, French
 * public holidays off), and the reference to quote. An audit gets the same confirmation as a contact.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function confirmationTo(address: string): Promise<string> {
  const mails = await outboxMails(t.dataDir, 'confirmation');
  const sent = mails.filter((mail) => mail.to?.some((to) => to.address === address));
  expect(sent).toHaveLength(1);
  return (sent[0]!.text ?? '').replace(/\u00a0/g, ' ');
}

/** The app's intake on the clock `now`, with BUSINESS_HOURS 09:00–18:00. */
function intakeOn(now: () => Date) {
  return createIntake({
    deliveries: t.store.deliveries,
    newsletter: { doubleOptIn: true, journal: t.store.newsletter },
    dispatcher: t.app.dispatcher,
    mode: 'sync',
    businessHours: parseBusinessHours('09:00-18:00'),
    now,
  });
}

describe('the answer promised, on fixed clocks (Paris time)', () => {
  const clocks: [string, string, string, string][] = [
    [
      'Friday evening',
      '2026-11-27T19:30:00+01:00',
      'mercredi 2 décembre à 15 h',
      '2026-12-02T14:00:00.000Z',
    ],
    [
      'Saturday 05:41',
      '2026-11-28T05:41:00+01:00',
      'mercredi 2 décembre à 15 h',
      '2026-12-02T14:00:00.000Z',
    ],
    [
      'the day before a public holiday (11 November)',
      '2026-11-10T15:30:00+01:00',
      'lundi 16 novembre à 12 h 30',
      '2026-11-16T11:30:00.000Z',
    ],
  ];
  for (const [when, at, said, iso] of clocks) {
    it(`${when}: « au plus tard ${said} » in the e-mail, ${iso} in the answer`, async () => {
      const intake = intakeOn(() => new Date(at));
      const email = `promise-${at.slice(0, 10)}@example.fr`;
      const outcome = await intake.submit({
        kind: 'contact',
        data: { ...validContact, EMAIL: email },
      });
      expect(outcome.answerBy?.toISOString()).toBe(iso);
      const text = await confirmationTo(email);
      expect(text).toContain(`nous vous répondrons au plus tard ${said} (heure de Paris)`);
      expect(text).toContain(
        `Référence de votre demande, à rappeler si vous nous écrivez : ${outcome.reference}`,
      );
    });
  }
});

describe('a request sent again (docs/reliability.md)', () => {
  it('a retry under the same Idempotency-Key repeats the first answer; the same body without it is promised from its own arrival', async () => {
    let clock = new Date('2026-11-30T10:00:00+01:00');
    const intake = intakeOn(() => clock);
    const request = {
      kind: 'contact' as const,
      data: { ...validContact, EMAIL: 'promise-retry@example.fr' },
    };
    const first = await intake.submit(request, { callerKey: 'retry-promise-1' });
    clock = new Date('2026-11-30T11:00:00+01:00');
    const retry = await intake.submit(request, { callerKey: 'retry-promise-1' });
    expect(retry.reference).toBe(first.reference);
    expect(retry.answerBy?.toISOString()).toBe(first.answerBy?.toISOString());
    const repeat = await intake.submit(request);
    expect(repeat.reference).toBe(first.reference);
    expect(repeat.answerBy!.getTime() - first.answerBy!.getTime()).toBe(60 * 60 * 1000);
  });
});

describe('an audit request is acknowledged like a contact', () => {
  it('one confirmation e-mail with its reference, and the reference in the answer', async () => {
    const email = 'audit-confirmation@example.fr';
    const response = await postJson(t.app, '/api/audit', { ...validAudit, email });
    expect(response.statusCode).toBe(200);
    const { reference, answerBy } = response.json() as { reference: string; answerBy: string };
    expect(reference).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(answerBy)).toBeGreaterThan(Date.now());
    const text = await confirmationTo(email);
    expect(text).toMatch(/^Bonjour Paul,/m);
    expect(text).toContain('Et maintenant ?');
    expect(text).toContain(reference);
    expect(text).toMatch(/nous vous répondrons au plus tard \S+ \d+/);
    // The same request again is the same lead: same reference, no second e-mail.
    const again = await postJson(t.app, '/api/audit', { ...validAudit, email });
    expect((again.json() as { reference: string }).reference).toBe(reference);
    await confirmationTo(email);
  });
});
