import { describe, expect, it } from 'vitest';
import { SECTORS } from '../../../src/kernel/schemas/sectors.ts';
import { expectApiError, postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validAudit, validContact, validSubscribe } from '../../helpers/app.ts';

const t = useTestApp();

function without<T extends object>(body: T, field: string): Partial<T> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => name !== field)) as Partial<T>;
}

const FULL_FORM_ONLY = ['NOM', 'JOB_TITLE', 'TYPE_BESOIN', 'SERVICE', 'DEMANDE'];
const REQUIRED = {
  '/api/contact': { base: validContact, fields: ['PRENOM', 'EMAIL', ...FULL_FORM_ONLY] },
  '/api/subscribe': { base: validSubscribe, fields: ['email', 'firstName'] },
  '/api/audit': { base: validAudit, fields: ['email', 'firstName'] },
};

describe('spec 7 rule 1: a missing required field is 400 missing_field naming it', () => {
  for (const [path, { base, fields }] of Object.entries(REQUIRED)) {
    for (const field of fields) {
      it(`${path} without ${field}`, async () => {
        const error = expectApiError(
          await postJson(t.app, path, without(base, field)),
          400,
          'missing_field',
        );
        expect(error.message).toContain(`« ${field} »`);
        // Spec 7: the hint tells to add it to the JSON body and points to /openapi.json.
        expect(error.hint).toContain(field);
        expect(error.hint).toContain('JSON');
        expect(error.hint).toContain('/openapi.json');
      });

      it(`${path} with ${field} empty counts as missing (docs/api-decisions.md)`, async () => {
        const response = await postJson(t.app, path, { ...base, [field]: '' });
        expect(expectApiError(response, 400, 'missing_field').message).toContain(`« ${field} »`);
      });
    }
  }

  it('an empty object names PRENOM first, the field every contact request needs', async () => {
    const error = expectApiError(await postJson(t.app, '/api/contact', {}), 400, 'missing_field');
    expect(error.message).toContain('« PRENOM »');
  });

  it('a missing field is reported before an invalid one', async () => {
    const response = await postJson(t.app, '/api/subscribe', { email: 'pas-une-adresse' });
    expect(expectApiError(response, 400, 'missing_field').message).toContain('firstName');
  });
});

describe('spec 2.1: the contact rule depends on TOOL_SOURCE', () => {
  const short = { PRENOM: 'Marie', EMAIL: 'marie@example.fr', TOOL_SOURCE: 'diagnostic' };

  it('with TOOL_SOURCE, PRENOM and EMAIL alone are enough', async () => {
    const response = await postJson(t.app, '/api/contact', short);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ success: true });
  });

  for (const field of ['PRENOM', 'EMAIL']) {
    it(`with TOOL_SOURCE, ${field} is still required`, async () => {
      const response = await postJson(t.app, '/api/contact', without(short, field));
      expect(expectApiError(response, 400, 'missing_field').message).toContain(`« ${field} »`);
    });
  }

  it('without TOOL_SOURCE each full-form field is required; with it the same body is accepted', async () => {
    for (const field of FULL_FORM_ONLY) {
      const body = without(validContact, field);
      const refused = await postJson(t.app, '/api/contact', body);
      expect(expectApiError(refused, 400, 'missing_field').message).toContain(`« ${field} »`);
      const accepted = await postJson(t.app, '/api/contact', {
        ...body,
        TOOL_SOURCE: 'diagnostic',
      });
      expect(accepted.statusCode, `${field}: ${accepted.body}`).toBe(200);
    }
    expect((await postJson(t.app, '/api/contact', validContact)).statusCode).toBe(200);
  });

  it('an empty TOOL_SOURCE counts as absent, so the full form is required (docs/api-decisions.md)', async () => {
    const response = await postJson(t.app, '/api/contact', { ...short, TOOL_SOURCE: '' });
    expect(expectApiError(response, 400, 'missing_field').message).toContain('« NOM »');
  });

  it('TYPE_BESOIN outside its choices is invalid_field listing them (docs/api-decisions.md)', async () => {
    const response = await postJson(t.app, '/api/contact', {
      ...validContact,
      TYPE_BESOIN: 'Visibilité',
    });
    const error = expectApiError(response, 400, 'invalid_field');
    expect(error.field).toBe('TYPE_BESOIN');
    expect(error.message).toContain('Attirer, Engager, Convertir');
    // Spec 2.1's comma-separated choices, spaces around the commas allowed.
    const accepted = await postJson(t.app, '/api/contact', {
      ...validContact,
      TYPE_BESOIN: 'Attirer, Convertir',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('TYPE_BESOIN typed in another case: the corrected body writes the choices exactly', async () => {
    const response = await postJson(t.app, '/api/contact', {
      ...validContact,
      TYPE_BESOIN: 'attirer, convertir',
    });
    const error = expectApiError(response, 400, 'invalid_field');
    const corrected = JSON.parse(/corrigé : (\{.*\})/.exec(error.hint)![1]!) as object;
    expect(corrected).toMatchObject({ TYPE_BESOIN: 'Attirer,Convertir' });
    expect((await postJson(t.app, '/api/contact', corrected)).statusCode).toBe(200);
  });
});

describe('spec 7 rule 2: an invalid value is 400 invalid_field naming the field', () => {
  const cases: [string, string, object, string, RegExp][] = [
    [
      'bad e-mail',
      '/api/contact',
      { ...validContact, EMAIL: 'marie.example.fr' },
      'EMAIL',
      /e-mail/,
    ],
    ['bad e-mail', '/api/subscribe', { ...validSubscribe, email: 'lea@' }, 'email', /e-mail/],
    ['bad e-mail', '/api/audit', { ...validAudit, email: 'paul@exa mple.fr' }, 'email', /e-mail/],
    ['number instead of text', '/api/contact', { ...validContact, PRENOM: 42 }, 'PRENOM', /chaîne/],
    ['null instead of text', '/api/contact', { ...validContact, SMS: null }, 'SMS', /chaîne/],
    [
      'array instead of text',
      '/api/subscribe',
      { ...validSubscribe, firstName: ['Léa'] },
      'firstName',
      /chaîne/,
    ],
    ['boolean instead of text', '/api/audit', { ...validAudit, phone: true }, 'phone', /chaîne/],
    [
      'object instead of text',
      '/api/contact',
      { ...validContact, EMAIL: { a: 1 } },
      'EMAIL',
      /chaîne/,
    ],
    [
      'sector outside the enum (spec 7 rule 3)',
      '/api/audit',
      { ...validAudit, sector: 'Avocats' },
      'sector',
      new RegExp(SECTORS.join(', ')),
    ],
    [
      'formData not an object',
      '/api/audit',
      { ...validAudit, formData: 'oui' },
      'formData',
      /objet/,
    ],
    [
      'formData answer not a string',
      '/api/audit',
      { ...validAudit, formData: { 'Combien ?': 3 } },
      'formData.Combien ?',
      /chaîne/,
    ],
    [
      'formData with more than 50 answers',
      '/api/audit',
      { ...validAudit, formData: answers(51) },
      'formData',
      /50 réponses au plus/,
    ],
    [
      'unknown property',
      '/api/contact',
      { ...validContact, TELEPHONE: '0612345678' },
      'TELEPHONE',
      /inconnu/,
    ],
    ['unknown property', '/api/subscribe', { ...validSubscribe, optin: 'oui' }, 'optin', /inconnu/],
    ['unknown property', '/api/audit', { ...validAudit, sectors: 'btp' }, 'sectors', /inconnu/],
  ];
  for (const [what, path, body, field, problem] of cases) {
    it(`${path}: ${what} → names ${field}`, async () => {
      const error = expectApiError(await postJson(t.app, path, body), 400, 'invalid_field');
      expect(error.message).toContain(`« ${field} »`);
      expect(error.message).toMatch(problem);
    });
  }

  it('formData with 50 answers, the cap, is accepted', async () => {
    const response = await postJson(t.app, '/api/audit', { ...validAudit, formData: answers(50) });
    expect(response.statusCode, response.body).toBe(200);
  });

  it('each sector of spec 2.3 is accepted', async () => {
    for (const sector of SECTORS) {
      const response = await postJson(t.app, '/api/audit', { ...validAudit, sector });
      expect(response.statusCode, response.body).toBe(200);
    }
  });

  it('a type error is never coerced: "42" is a text, 42 is not', async () => {
    expect(
      (await postJson(t.app, '/api/contact', { ...validContact, SMS: '0612345678' })).statusCode,
    ).toBe(200);
    expectApiError(
      await postJson(t.app, '/api/contact', { ...validContact, SMS: 42 }),
      400,
      'invalid_field',
    );
  });
});

describe('spec 7: a body that cannot be read as a JSON object is 400', () => {
  for (const [what, raw] of [
    ['truncated', '{"PRENOM": "Marie"'],
    ['not JSON at all', 'PRENOM=Marie'],
    ['empty', ''],
    ['trailing comma', '{"PRENOM": "Marie",}'],
  ]) {
    it(`unparsable (${what}) is invalid_json`, async () => {
      expectApiError(await postJson(t.app, '/api/contact', raw), 400, 'invalid_json');
    });
  }

  for (const [what, raw] of [
    ['an array', '[{"PRENOM": "Marie"}]'],
    ['a string', '"Marie"'],
    ['null', 'null'],
    ['a number', '42'],
  ]) {
    it(`${what} is invalid_json, since the body must be an object (docs/api-decisions.md)`, async () => {
      for (const path of Object.keys(REQUIRED)) {
        const error = expectApiError(await postJson(t.app, path, raw), 400, 'invalid_json');
        expect(error.message).toMatch(/objet JSON/);
      }
    });
  }
});

function answers(count: number): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, index) => [`Question ${index} ?`, 'oui']),
  );
}
