import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, postForm } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const contactForm: [string, string][] = [
  ['PRENOM', 'Marie'],
  ['NOM', 'Dupont'],
  ['EMAIL', 'marie.dupont@example.fr'],
  ['JOB_TITLE', 'Avocate'],
  ['TYPE_BESOIN', 'Attirer'],
  ['SERVICE', 'Référencement local'],
  ['DEMANDE', 'Être trouvée à Lyon & alentours.'],
];

/** The journaled lead sent from `email` (each test uses its own address). */
async function leadFrom(email: string) {
  const entries = await t.store.list();
  const matches = entries.filter(({ lead }) => JSON.stringify(lead.data).includes(`"${email}"`));
  expect(matches).toHaveLength(1);
  return matches[0]!;
}

function withEmail(fields: [string, string][], email: string): [string, string][] {
  return fields.map(([name, value]) => [name, name === 'EMAIL' ? email : value]);
}

describe('spec 4 rule 4: a form without Accept: application/json is redirected', () => {
  for (const accept of [undefined, 'text/html,application/xhtml+xml,*/*;q=0.8', '*/*']) {
    it(`303 Location /contact/merci (Accept: ${accept ?? 'absent'})`, async () => {
      const response = await postForm(t.app, '/api/contact', contactForm, {
        ...(accept && { accept }),
      });
      expect(response.statusCode, response.body).toBe(303);
      expect(response.headers.location).toBe('/contact/merci');
      expect(response.headers['access-control-allow-origin']).toBe('*');
    });
  }

  it('the same over a real socket, as a browser without JavaScript sends it', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${address}/api/subscribe`, {
      method: 'POST',
      body: new URLSearchParams({ email: 'socket@example.fr', firstName: 'Léa' }),
      headers: { accept: 'text/html' },
      redirect: 'manual',
    });
    expect(response.status).toBe(303);
    // Each outcome has its page; /contact/merci stays the contact form's (spec 4 rule 4).
    expect(response.headers.get('location')).toBe('/newsletter/merci');
    expect((await leadFrom('socket@example.fr')).lead.data).toEqual({
      email: 'socket@example.fr',
      firstName: 'Léa',
    });
  });
});

describe('spec 4 rule 4: a form with Accept: application/json gets the JSON answer', () => {
  it('contact: 200 {"success":true}', async () => {
    const response = await postForm(t.app, '/api/contact', contactForm, {
      accept: 'application/json',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe('{"success":true}');
  });

  it('subscribe: 200 with existing', async () => {
    const fields: [string, string][] = [
      ['email', 'form-json@example.fr'],
      ['firstName', 'Léa'],
    ];
    const response = await postForm(t.app, '/api/subscribe', fields, {
      accept: 'application/json',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, existing: false });
  });
});

describe('spec 4 rule 1: form fields', () => {
  it('a repeated field is joined with a comma (checkboxes of TYPE_BESOIN)', async () => {
    const fields = withEmail(contactForm, 'repeated@example.fr').filter(
      ([name]) => name !== 'TYPE_BESOIN',
    );
    fields.push(
      ['TYPE_BESOIN', 'Attirer'],
      ['TYPE_BESOIN', 'Engager'],
      ['TYPE_BESOIN', 'Convertir'],
    );
    expect((await postForm(t.app, '/api/contact', fields)).statusCode).toBe(303);
    const { lead } = await leadFrom('repeated@example.fr');
    expect(lead.data).toMatchObject({ TYPE_BESOIN: 'Attirer,Engager,Convertir' });
  });

  it('the audit questionnaire travels as formData[Question]=Answer keys (docs/api-decisions.md)', async () => {
    const fields: [string, string][] = [
      ['email', 'audit-form@example.fr'],
      ['firstName', 'Paul'],
      ['sector', 'btp'],
      ['formData[Combien de chantiers par an ?]', 'Une trentaine'],
      ['formData[Avez-vous une fiche Google ?]', 'Oui'],
      ['formData[Vos services]', 'Maçonnerie'],
      ['formData[Vos services]', 'Toiture'],
    ];
    const response = await postForm(t.app, '/api/audit', fields, { accept: 'application/json' });
    expect(response.statusCode, response.body).toBe(200);
    const { lead } = await leadFrom('audit-form@example.fr');
    expect(lead.data).toEqual({
      email: 'audit-form@example.fr',
      firstName: 'Paul',
      sector: 'btp',
      formData: {
        'Combien de chantiers par an ?': 'Une trentaine',
        'Avez-vous une fiche Google ?': 'Oui',
        'Vos services': 'Maçonnerie,Toiture',
      },
    });
  });

  it('a questionnaire key nested deeper than formData[Question] is invalid_field', async () => {
    const fields: [string, string][] = [
      ['email', 'nested@example.fr'],
      ['firstName', 'Paul'],
      ['formData[Q][sous-question]', 'R'],
    ];
    const error = expectApiError(await postForm(t.app, '/api/audit', fields), 400, 'invalid_field');
    expect(error.message).toContain('« formData[Q][sous-question] »');
  });

  it('an empty input is absent: optional ones are dropped, required ones are missing_field', async () => {
    const withBlanks: [string, string][] = [
      ...withEmail(contactForm, 'blanks@example.fr'),
      ['SMS', ''],
      ['TOOL_DATA', ''],
    ];
    expect((await postForm(t.app, '/api/contact', withBlanks)).statusCode).toBe(303);
    const { lead } = await leadFrom('blanks@example.fr');
    expect(Object.keys(lead.data)).not.toContain('SMS');
    expect(Object.keys(lead.data)).not.toContain('TOOL_DATA');

    const blankName = contactForm.map(([name, value]): [string, string] => [
      name,
      name === 'NOM' ? '' : value,
    ]);
    const error = expectApiError(
      await postForm(t.app, '/api/contact', blankName),
      400,
      'missing_field',
    );
    expect(error.message).toContain('« NOM »');
  });

  it('an empty TOOL_SOURCE input does not turn a form into a short request', async () => {
    const fields: [string, string][] = [
      ['PRENOM', 'Marie'],
      ['EMAIL', 'marie@example.fr'],
      ['TOOL_SOURCE', ''],
    ];
    expectApiError(await postForm(t.app, '/api/contact', fields), 400, 'missing_field');
  });

  it('a form error is answered in JSON, whatever Accept says (docs/api-decisions.md)', async () => {
    const fields: [string, string][] = [
      ['email', 'pas-une-adresse'],
      ['firstName', 'Léa'],
    ];
    const response = await postForm(t.app, '/api/subscribe', fields, { accept: 'text/html' });
    expect(expectApiError(response, 400, 'invalid_field').message).toContain('« email »');
  });

  it('an unknown form field is invalid_field, as in JSON', async () => {
    // Not `website`: the site forms' honeypot (docs/api-decisions.md, "Bot trap"), never a field.
    const fields: [string, string][] = [...contactForm, ['homepage', 'https://spam.example']];
    const error = expectApiError(
      await postForm(t.app, '/api/contact', fields),
      400,
      'invalid_field',
    );
    expect(error.message).toContain('« homepage »');
  });

  it('a percent-encoded form decodes accents, "+" and "&" exactly', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/subscribe',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' },
      payload: 'email=plus%40example.fr&firstName=Jean+Fran%C3%A7ois&source=a%26b',
    });
    expect(response.statusCode).toBe(303);
    expect((await leadFrom('plus@example.fr')).lead.data).toEqual({
      email: 'plus@example.fr',
      firstName: 'Jean François',
      source: 'a&b',
    });
  });
});
