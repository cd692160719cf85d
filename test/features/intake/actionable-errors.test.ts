import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEAD_KINDS } from '../../../src/kernel/schemas/lead-kinds.ts';
import { CONTACT_EXAMPLE } from '../../../src/kernel/schemas/examples.ts';
import { expectApiError, postForm, postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact, type TestApp } from '../../helpers/app.ts';

/*
 * docs/api-decisions.md, "Errors an agent can act on": each error names the field as sent
 * (`error.field`), and its hint, applied literally by a program that reads nothing else, makes the
 * next request succeed.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** « NOM », « EMAIL »… quoted in a hint, in order. */
function quotedNames(text: string): string[] {
  return [...text.matchAll(/« ([^»]+) »/g)].map((match) => match[1]!);
}

function expectAccepted(response: { statusCode: number; body: string }) {
  expect(response.statusCode, response.body).toBe(200);
}

async function journaledWith(email: string) {
  const entries = (await t.store.list()).filter(({ lead }) =>
    JSON.stringify(lead.data).includes(`"${email}"`),
  );
  expect(entries).toHaveLength(1);
  return entries[0]!.lead.data as Record<string, unknown>;
}

describe('missing_field names every missing field at once', () => {
  it('an empty contact names the seven fields of the full form; adding them all succeeds', async () => {
    const error = expectApiError(await postJson(t.app, '/api/contact', {}), 400, 'missing_field');
    const named = quotedNames(error.hint);
    expect(named).toEqual([
      'PRENOM',
      'EMAIL',
      'NOM',
      'JOB_TITLE',
      'TYPE_BESOIN',
      'SERVICE',
      'DEMANDE',
    ]);
    expect(quotedNames(error.message)).toEqual(named);
    expect(error.field).toBe('PRENOM');
    const fixed = Object.fromEntries(named.map((name) => [name, validContact[name as never]]));
    expectAccepted(await postJson(t.app, '/api/contact', fixed));
  });

  it('only PRENOM and EMAIL sent: the five full-form fields in one answer', async () => {
    const body = { PRENOM: 'Marie', EMAIL: 'missing-five@example.fr' };
    const error = expectApiError(await postJson(t.app, '/api/contact', body), 400, 'missing_field');
    expect(error.field).toBe('NOM');
    const named = quotedNames(error.hint);
    expect(named).toHaveLength(5);
    const fixed = {
      ...body,
      ...Object.fromEntries(named.map((n) => [n, CONTACT_EXAMPLE[n as never]])),
    };
    expectAccepted(await postJson(t.app, '/api/contact', fixed));
  });
});

describe('a field spelled otherwise is named with its right spelling', () => {
  /** Applies "renommez « a » en « B »" to a body. */
  function applyRenames(body: Record<string, unknown>, hint: string) {
    const renames = [...hint.matchAll(/renommez « ([^»]+) » en « ([^»]+) »/gi)];
    expect(renames.length).toBeGreaterThan(0);
    const fixed = { ...body };
    for (const [, sent, right] of renames) {
      fixed[right!] = fixed[sent!];
      delete fixed[sent!];
    }
    return fixed;
  }

  it('lowercase email on /api/contact: unknown field, did you mean EMAIL', async () => {
    const body: Record<string, unknown> = { ...validContact, email: 'lowercase@example.fr' };
    delete body.EMAIL;
    const error = expectApiError(await postJson(t.app, '/api/contact', body), 400, 'invalid_field');
    expect(error.field).toBe('email');
    expect(error.message).toContain('« EMAIL »');
    expectAccepted(await postJson(t.app, '/api/contact', applyRenames(body, error.hint)));
  });

  it('several fields in the wrong case are all named in one answer', async () => {
    const body = { EMAIL: 'upper@example.fr', FIRSTNAME: 'Léa', Source: 'test' };
    const error = expectApiError(
      await postJson(t.app, '/api/subscribe', body),
      400,
      'invalid_field',
    );
    expect(error.field).toBe('EMAIL');
    expectAccepted(await postJson(t.app, '/api/subscribe', applyRenames(body, error.hint)));
  });

  it('a JSON key formData[Question] is told to go inside formData, and its answer is kept', async () => {
    const question = 'Quel est votre métier principal\u00a0?';
    const body = {
      ...validAudit,
      email: 'bracket@example.fr',
      [`formData[${question}]`]: 'Couvreur',
    };
    const error = expectApiError(await postJson(t.app, '/api/audit', body), 400, 'invalid_field');
    expect(error.field).toBe(`formData[${question}]`);
    // The hint shows the nesting as JSON: "formData": {"<question>": "la réponse"}.
    const nesting = /"formData": (\{.*?\})/.exec(error.hint);
    expect(nesting, error.hint).not.toBeNull();
    const [key] = Object.keys(JSON.parse(nesting![1]!) as object);
    const { [`formData[${question}]`]: answer, ...rest } = body;
    const fixed = { ...rest, formData: { ...validAudit.formData, [key!]: answer } };
    expectAccepted(await postJson(t.app, '/api/audit', fixed));
    expect((await journaledWith('bracket@example.fr')).formData).toMatchObject({
      [question]: 'Couvreur',
    });
  });
});

describe('a form field sent twice is reported as repeated, not as a bad value', () => {
  it('two email inputs on the newsletter form', async () => {
    const fields: [string, string][] = [
      ['firstName', 'Léa'],
      ['email', 'first@example.fr'],
      ['email', 'second@example.fr'],
    ];
    const accept = { accept: 'application/json' };
    const error = expectApiError(
      await postForm(t.app, '/api/subscribe', fields, accept),
      400,
      'invalid_field',
    );
    expect(error.field).toBe('email');
    expect(error.message).toMatch(/2 fois/);
    expect(error.hint).toMatch(/une seule fois/);
    // Applied: keep one value of the repeated field.
    const once = fields.filter(
      ([name], index) => name !== error.field || index === fields.findIndex(([n]) => n === name),
    );
    expectAccepted(await postForm(t.app, '/api/subscribe', once, accept));
  });

  it('repeated checkboxes that make a valid value are still joined (spec 4 rule 1)', async () => {
    const fields = Object.entries({
      ...validContact,
      EMAIL: 'boxes@example.fr',
      TYPE_BESOIN: 'Attirer',
    });
    fields.push(['TYPE_BESOIN', 'Convertir']);
    expectAccepted(await postForm(t.app, '/api/contact', fields, { accept: 'application/json' }));
    expect((await journaledWith('boxes@example.fr')).TYPE_BESOIN).toBe('Attirer,Convertir');
  });
});

describe('invalid_json shows an example body of the endpoint called', () => {
  for (const endpoint of LEAD_KINDS) {
    it(`${endpoint.path}: the hint's example is accepted as is`, async () => {
      const error = expectApiError(
        await postJson(t.app, endpoint.path, '{"oops":'),
        400,
        'invalid_json',
      );
      expect(error.field).toBeUndefined();
      const example = /par exemple (\{.*\}) /.exec(error.hint)?.[1];
      expect(example, error.hint).toBeDefined();
      expectAccepted(await postJson(t.app, endpoint.path, JSON.parse(example!)));
    });
  }
});

describe('error.field on the other field errors', () => {
  const cases: [string, string, object, string][] = [
    ['malformed e-mail', '/api/contact', { ...validContact, EMAIL: 'pas-une-adresse' }, 'EMAIL'],
    [
      'text too long',
      '/api/subscribe',
      { email: 'l@example.fr', firstName: 'x'.repeat(101) },
      'firstName',
    ],
    ['sector outside the enum', '/api/audit', { ...validAudit, sector: 'BTP' }, 'sector'],
    [
      'unknown field',
      '/api/subscribe',
      { email: 'l@example.fr', firstName: 'Léa', phone: '06' },
      'phone',
    ],
    ['answer not a text', '/api/audit', { ...validAudit, formData: { 'Q ?': 3 } }, 'formData.Q ?'],
  ];
  for (const [what, path, body, field] of cases) {
    it(`${path}: ${what} → field ${field}`, async () => {
      expect(expectApiError(await postJson(t.app, path, body), 400, 'invalid_field').field).toBe(
        field,
      );
    });
  }

  it('a malformed Idempotency-Key names the header', async () => {
    const response = await postJson(t.app, '/api/contact', validContact, {
      'idempotency-key': 'é',
    });
    expect(expectApiError(response, 400, 'invalid_field').field).toBe('Idempotency-Key');
  });

  it('errors that are not about a field carry no field', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/contact' });
    expect(expectApiError(response, 405, 'method_not_allowed').field).toBeUndefined();
  });
});
