import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, postJson } from '../../helpers/api-assertions.ts';
import {
  buildTestApp,
  validAudit,
  validContact,
  validSubscribe,
  type TestApp,
} from '../../helpers/app.ts';

/** An address of exactly `length` characters that the e-mail format accepts (labels ≤ 63). */
function emailOfLength(length: number): string {
  const domain = `${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.fr`; // 189 characters
  return `${'a'.repeat(length - domain.length - 1)}@${domain}`;
}

/*
 * `n` characters (code points) that are 1.5 n UTF-16 units: half of them are emoji (two units each).
 * A bound counted in UTF-16 units would refuse it at the limit. Half ASCII keeps the 20000-character
 * TOOL_DATA under the 64 KiB body limit.
 */
function textOfLength(n: number): string {
  return '🙂'.repeat(Math.ceil(n / 2)) + 'a'.repeat(Math.floor(n / 2));
}

const BOUNDS = {
  '/api/contact': {
    base: validContact,
    fields: {
      PRENOM: 100,
      EMAIL: 254,
      NOM: 100,
      JOB_TITLE: 200,
      TYPE_BESOIN: 200,
      SERVICE: 200,
      DEMANDE: 5000,
      SMS: 30,
      SMS__COUNTRY_CODE: 6,
      TOOL_SOURCE: 100,
      TOOL_DATA: 20000,
    },
  },
  '/api/subscribe': {
    base: validSubscribe,
    fields: { email: 254, firstName: 100, lastName: 100, source: 100 },
  },
  '/api/audit': {
    base: validAudit,
    fields: { email: 254, firstName: 100, lastName: 100, phone: 30 },
  },
} as const;

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('spec 2: every maxLength, at the limit and one over', () => {
  for (const [path, { base, fields }] of Object.entries(BOUNDS)) {
    for (const [field, limit] of Object.entries(fields)) {
      const value = (length: number) =>
        /email/i.test(field) ? emailOfLength(length) : textOfLength(length);

      it(`${path} ${field}: ${limit} characters is valid (spec 2)`, async () => {
        const response = await postJson(t.app, path, { ...base, [field]: value(limit) });
        expect(response.statusCode, response.body).toBe(200);
      });

      it(`${path} ${field}: ${limit + 1} characters is invalid_field (spec 7 rule 2)`, async () => {
        const response = await postJson(t.app, path, { ...base, [field]: value(limit + 1) });
        const error = expectApiError(response, 400, 'invalid_field');
        expect(error.message).toContain(field);
        expect(error.message).toContain(String(limit));
      });
    }
  }
});

describe('spec 2: maxLength counts Unicode code points, not UTF-16 units', () => {
  it('100 emoji is a valid PRENOM and is journaled intact', async () => {
    const PRENOM = '😀'.repeat(100);
    const response = await postJson(t.app, '/api/contact', { ...validContact, PRENOM });
    expect(response.statusCode, response.body).toBe(200);
    const entries = await t.store.list({ kinds: ['contact'] });
    expect(
      entries.some((entry) => 'PRENOM' in entry.lead.data && entry.lead.data.PRENOM === PRENOM),
    ).toBe(true);
  });

  it('101 emoji is an invalid PRENOM', async () => {
    const response = await postJson(t.app, '/api/contact', {
      ...validContact,
      PRENOM: '😀'.repeat(101),
    });
    expect(expectApiError(response, 400, 'invalid_field').message).toContain('PRENOM');
  });

  it('200 characters with accents and combining marks is a valid JOB_TITLE', async () => {
    // "é" written as e + U+0301 is two code points: the bound counts them both.
    const JOB_TITLE = 'e\u0301'.repeat(100);
    const response = await postJson(t.app, '/api/contact', { ...validContact, JOB_TITLE });
    expect(response.statusCode, response.body).toBe(200);
  });
});
