import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  validAudit,
  validContact,
  validSubscribe,
  type TestApp,
} from '../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import { AGENCY } from '../../src/features/site/agency.ts';

/*
 * docs/brevo.md, MAIL_PROVIDER=brevo: what reaches Brevo's API v3 (a loopback fake that answers as Brevo
 * does) for each kind of lead, and what the caller and the journal see.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let fake: FakeBrevo;
let harness: TestApp;

async function start(env: Record<string, string> = {}) {
  harness = await buildTestApp({
    env: {
      MAIL_PROVIDER: 'brevo',
      BREVO_API_KEY: 'k',
      BREVO_API_URL: fake.url,
      PROVIDER_TIMEOUT_MS: '5000',
      MAIL_FROM: 'Agence Exemple <bonjour@agence.example>',
      AGENCY_EMAIL: 'equipe@agence.example',
      BREVO_CONTACT_LIST_ID: '7',
      BREVO_NEWSLETTER_LIST_ID: '8',
      BREVO_AUDIT_LIST_ID: '9',
      ...env,
    },
  });
  return harness;
}

function post(path: string, payload: object) {
  return harness.app.inject({ method: 'POST', url: path, payload });
}

beforeEach(async () => {
  fake = await startFakeBrevo('k');
});
afterEach(async () => {
  await harness?.close();
  await fake.close();
});

describe('Brevo provider: contact (docs/brevo.md)', () => {
  it('saves the contact with its attributes in BREVO_CONTACT_LIST_ID, then confirms and notifies', async () => {
    await start();
    const lead = { ...validContact, SMS: '06 12 34 56 78', SMS__COUNTRY_CODE: '+33' };
    const response = await post('/api/contact', lead);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    const [contact, ...others] = fake.requestsTo('/contacts');
    expect(others).toEqual([]);
    expect(contact?.headers['api-key']).toBe('k');
    expect(contact?.headers['content-type']).toMatch(/^application\/json/);
    expect(contact?.body).toEqual({
      email: lead.EMAIL,
      attributes: {
        PRENOM: 'Marie',
        NOM: 'Dupont',
        JOB_TITLE: 'Avocate',
        TYPE_BESOIN: 'Attirer,Convertir',
        SERVICE: 'Référencement local',
        DEMANDE: lead.DEMANDE,
        SMS: '+33612345678',
      },
      listIds: [7],
      updateEnabled: false,
    });

    const [confirmation, notification] = fake.sent as Record<string, string>[];
    expect(fake.sent).toHaveLength(2);
    expect(confirmation).toMatchObject({
      to: [{ email: lead.EMAIL }],
      // docs/emails.md: MAIL_FROM's address under the identity's sender name.
      sender: { name: AGENCY.mail.senderName, email: 'bonjour@agence.example' },
      subject: 'Nous avons bien reçu votre demande',
    });
    // Brevo carries both parts (docs/brevo.md: htmlContent and textContent).
    expect(confirmation!.htmlContent).toContain('Bonjour Marie,</p>');
    expect(confirmation!.htmlContent).toContain('<html lang="fr">');
    expect(confirmation!.textContent).toContain('Bonjour Marie,');
    // French typography puts no-break spaces in the text: compared with plain spaces.
    expect(String(confirmation!.textContent).replace(/\s+/g, ' ')).toContain(
      'sous 24 heures ouvrées',
    );
    expect(notification).toMatchObject({
      to: [{ email: 'equipe@agence.example' }],
      replyTo: { email: lead.EMAIL, name: 'Marie Dupont' },
    });
    expect(notification!.htmlContent).toContain('<html lang="fr">');
    for (const value of Object.values(lead)) {
      expect(notification!.textContent).toContain(value);
    }
    const keys = fake.sent.map(
      (mail) => (mail.headers as { idempotencyKey: string }).idempotencyKey,
    );
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);

    const [entry] = await harness.store.list();
    expect(entry?.status).toBe('delivered');
    expect(entry?.providerAnswer).toContain('contact created');
  });

  it('sends the confirmation with BREVO_CONTACT_TEMPLATE_ID and no typed text when it is set', async () => {
    await start({ BREVO_CONTACT_TEMPLATE_ID: '12' });
    const response = await post('/api/contact', {
      PRENOM: 'Zoé',
      EMAIL: 'zoe@example.fr',
      TOOL_SOURCE: 'diagnostic',
    });

    expect(response.statusCode).toBe(200);
    const [confirmation, notification] = fake.sent;
    expect(confirmation).toMatchObject({ templateId: 12, to: [{ email: 'zoe@example.fr' }] });
    expect(confirmation).not.toHaveProperty('subject');
    expect(confirmation).not.toHaveProperty('params');
    expect(JSON.stringify(confirmation)).not.toContain('Zoé');
    expect(notification).toMatchObject({ to: [{ email: 'equipe@agence.example' }] });
    expect(notification).not.toHaveProperty('templateId');
    // A short request carries only what exists: no empty attributes, no SMS.
    expect(fake.requestsTo('/contacts')[0]?.body).toMatchObject({
      attributes: { PRENOM: 'Zoé', TOOL_SOURCE: 'diagnostic' },
    });
    expect(
      Object.keys((fake.requestsTo('/contacts')[0]?.body as { attributes: object }).attributes),
    ).toEqual(['PRENOM', 'TOOL_SOURCE']);
  });

  it('caps the reply-to name at Brevo’s 70 characters and leaves out a phone Brevo could not read', async () => {
    await start();
    const PRENOM = '😀'.repeat(100);
    const response = await post('/api/contact', { ...validContact, PRENOM, SMS: '06 12 34 56 78' });

    expect(response.statusCode).toBe(200);
    const notification = fake.sent[1] as { replyTo: { name: string } };
    expect([...notification.replyTo.name].length).toBeLessThanOrEqual(70);
    expect(fake.requestsTo('/contacts')[0]?.body).not.toHaveProperty('attributes.SMS');
  });
});

describe('Brevo provider: subscribe and audit say `existing` from the journal, per list (spec 2.4, 4.2)', () => {
  // The subscription's contact is created at once (docs/consent.md: double opt-in waits for the
  // link; test/features/newsletter/newsletter-double-opt-in.test.ts covers that).
  const SINGLE_OPT_IN = { NEWSLETTER_DOUBLE_OPT_IN: 'false' };
  it('answers existing: false for a first subscription, true for the next one (the journal knows it)', async () => {
    await start(SINGLE_OPT_IN);
    const first = await post('/api/subscribe', validSubscribe);
    const second = await post('/api/subscribe', { ...validSubscribe, lastName: 'Martin' });

    expect(first.json()).toMatchObject({ success: true, existing: false });
    expect(second.json()).toMatchObject({ success: true, existing: true });
    expect(fake.requestsTo('/contacts').map((request) => request.body)).toEqual([
      {
        email: validSubscribe.email,
        attributes: { PRENOM: 'Léa' },
        listIds: [8],
        updateEnabled: false,
      },
      {
        email: validSubscribe.email,
        attributes: { PRENOM: 'Léa', NOM: 'Martin' },
        listIds: [8],
        updateEnabled: false,
      },
    ]);
    expect(fake.contacts.get(validSubscribe.email)).toMatchObject({
      attributes: { PRENOM: 'Léa' },
      listIds: [8],
    });
    expect((await harness.store.list()).map((entry) => entry.status)).toEqual([
      'delivered',
      'delivered',
    ]);
  });

  it('never updates a known contact: adds it to the list, keeps its attributes (docs/brevo.md)', async () => {
    await start(SINGLE_OPT_IN);
    const customer = { PRENOM: 'Claire', NOM: 'Fidèle', SMS: '+33611111111' };
    fake.contacts.set('claire@example.fr', { id: 5, attributes: { ...customer }, listIds: [2] });
    const renamed = {
      email: 'Claire@example.fr',
      firstName: 'Appelez le 0899',
      lastName: 'Pirate',
    };

    const subscribed = await post('/api/subscribe', renamed);
    const audited = await post('/api/audit', {
      ...validAudit,
      ...renamed,
      phone: '+33 6 99 99 99 99',
    });
    const contacted = await post('/api/contact', {
      ...validContact,
      EMAIL: renamed.email,
      PRENOM: 'X',
    });

    // `existing` comes from the journal, per list (docs/brevo.md): new here, whatever Brevo holds.
    expect([subscribed.json(), audited.json(), contacted.json()]).toEqual([
      { success: true, existing: false, confirmation: 'not_needed' },
      { success: true, existing: false },
      { success: true },
    ]);
    expect(fake.contacts.get('claire@example.fr')).toEqual({
      id: 5,
      attributes: customer,
      listIds: [2, 8, 9, 7],
    });
    for (const request of fake.requestsTo('/contacts')) {
      expect(request.body).toMatchObject({ updateEnabled: false });
    }
    const listAdds = fake.requests.filter((request) => request.path.endsWith('/contacts/add'));
    expect(listAdds.map((request) => [request.path, request.body])).toEqual([
      ['/contacts/lists/8/contacts/add', { emails: [renamed.email] }],
      ['/contacts/lists/9/contacts/add', { emails: [renamed.email] }],
      ['/contacts/lists/7/contacts/add', { emails: [renamed.email] }],
    ]);
    // The person is still served: the agency is notified of each request, the lead delivered.
    expect(fake.sent.filter((mail) => JSON.stringify(mail.to).includes('equipe@'))).toHaveLength(3);
    expect((await harness.store.list()).every((entry) => entry.status === 'delivered')).toBe(true);
    // Again on a list the contact is already in: still fine.
    expect((await post('/api/subscribe', { ...renamed, lastName: 'Autre' })).json()).toEqual({
      success: true,
      existing: true,
      confirmation: 'not_needed',
    });
  });

  it('a contact Brevo already holds (from another list) is still new to the newsletter', async () => {
    await start(SINGLE_OPT_IN);
    fake.contacts.set(validSubscribe.email, { id: 41, attributes: {}, listIds: [3] });
    const response = await post('/api/subscribe', validSubscribe);
    expect(response.json()).toMatchObject({ success: true, existing: false });
    expect(fake.contacts.get(validSubscribe.email)?.listIds).toEqual([3, 8]);
  });

  it('takes Brevo’s duplicate_parameter on the address as a saved contact, not a failure', async () => {
    await start(SINGLE_OPT_IN);
    fake.script('/contacts', () => ({
      status: 400,
      body: {
        code: 'duplicate_parameter',
        message: 'Unable to create contact, email is already associated with another Contact',
        metadata: { duplicate_identifiers: ['email'] },
      },
    }));
    const response = await post('/api/subscribe', validSubscribe);
    expect(response.statusCode).toBe(200);
    const [entry] = await harness.store.list();
    expect(entry?.status).toBe('delivered');
    expect(entry?.providerAnswer).toContain('contact known, attributes kept');
  });

  it('puts an audit in BREVO_AUDIT_LIST_ID and mails the questionnaire answers to the agency', async () => {
    await start();
    const response = await post('/api/audit', { ...validAudit, phone: '+33 6 12 34 56 78' });

    expect(response.json()).toMatchObject({ success: true, existing: false });
    expect(fake.requestsTo('/contacts')[0]?.body).toEqual({
      email: validAudit.email,
      attributes: { PRENOM: 'Paul', SMS: '+33612345678' },
      listIds: [9],
      updateEnabled: false,
    });
    expect(fake.sent).toHaveLength(1);
    const notification = fake.sent[0] as { to: unknown; textContent: string; subject: string };
    expect(notification.to).toEqual([{ email: 'equipe@agence.example', name: AGENCY.name }]);
    // The fixture's question is not one of the BTP questionnaire's: the agency is told so.
    expect(notification.textContent).toContain(
      'Combien de chantiers par an ? : Une trentaine (question hors questionnaire)',
    );
    expect(notification.subject).toContain('Artisans et entreprises du BTP');
  });

  it('sends no list when the optional list ids are unset', async () => {
    await start({ BREVO_CONTACT_LIST_ID: '', BREVO_AUDIT_LIST_ID: '' });
    await post('/api/contact', validContact);
    await post('/api/audit', validAudit);
    for (const request of fake.requestsTo('/contacts'))
      expect(request.body).not.toHaveProperty('listIds');
  });
});
