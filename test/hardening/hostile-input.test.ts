import { describe, expect, it } from 'vitest';
import { useTestApp, validAudit, validContact, validSubscribe } from '../helpers/app.ts';

const t = useTestApp();

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
const PROTOTYPE_BEFORE = Object.getOwnPropertyNames(Object.prototype).sort();

function post(url: string, payload: string, contentType = 'application/json') {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: { 'content-type': contentType, accept: 'application/json' },
  });
}

async function journaled(email: string) {
  const entries = (await t.store.list()).filter(({ lead }) =>
    JSON.stringify(lead.data).includes(email),
  );
  expect(entries).toHaveLength(1);
  return entries[0]!.lead.data as Record<string, unknown>;
}

function expectPrototypeUntouched() {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_BEFORE);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
}

describe('prototype-pollution keys are data, never object machinery (docs/reliability.md)', () => {
  it('JSON: questionnaire keys __proto__, constructor, prototype are answers, stored as written', async () => {
    const body = `{"email":"proto-json@example.fr","firstName":"Paul","formData":{"__proto__":"a","constructor":"b","prototype":"c","Q":"d"}}`;
    const response = await post('/api/audit', body);
    expect(response.statusCode, response.body).toBe(200);
    const data = await journaled('proto-json@example.fr');
    const formData = data.formData as Record<string, unknown>;
    expect(Object.keys(formData)).toEqual([...PROTO_KEYS, 'Q']);
    expect(Object.getOwnPropertyDescriptor(formData, '__proto__')?.value).toBe('a');
    expect(formData.constructor).toBe('b');
    expectPrototypeUntouched();
  });

  it('form: formData[__proto__] and friends are answers too', async () => {
    const body =
      'email=proto-form%40example.fr&firstName=Paul&formData[__proto__]=a&formData[constructor]=b&formData[prototype]=c';
    const response = await post('/api/audit', body, 'application/x-www-form-urlencoded');
    expect(response.statusCode, response.body).toBe(200);
    const formData = (await journaled('proto-form@example.fr')).formData as Record<string, unknown>;
    expect(Object.keys(formData)).toEqual(PROTO_KEYS);
    expect(Object.getOwnPropertyDescriptor(formData, '__proto__')?.value).toBe('a');
    expectPrototypeUntouched();
  });

  it('a top-level __proto__ or constructor is an unknown field: 400 invalid_field', async () => {
    const attempts: [string, string][] = [
      [
        `{"__proto__":{"polluted":"yes"},"email":"a@example.fr","firstName":"x"}`,
        'application/json',
      ],
      [
        `{"constructor":{"prototype":{"polluted":"yes"}},"email":"a@example.fr","firstName":"x"}`,
        'application/json',
      ],
      ['email=a%40example.fr&firstName=x&__proto__=1', 'application/x-www-form-urlencoded'],
      [
        'email=a%40example.fr&firstName=x&__proto__[polluted]=yes',
        'application/x-www-form-urlencoded',
      ],
      [
        'email=a%40example.fr&firstName=x&constructor[prototype]=yes',
        'application/x-www-form-urlencoded',
      ],
    ];
    for (const [body, type] of attempts) {
      const response = await post('/api/subscribe', body, type);
      expect(response.statusCode, body).toBe(400);
      expect(response.json().error.code, body).toBe('invalid_field');
    }
    // A nested object under a questionnaire key is not a string answer.
    const nested = await post(
      '/api/audit',
      `{"email":"a@example.fr","firstName":"x","formData":{"__proto__":{"polluted":"yes"}}}`,
    );
    expect(nested.json().error.code).toBe('invalid_field');
    expectPrototypeUntouched();
  });
});

/*
 * docs/reliability.md: nothing under the body limit stalls the event loop. The worst cases measured for
 * docs/reliability.md: 64 KiB of nested brackets, thousands of keys, an e-mail built to make its
 * pattern backtrack, a long field of emoji (counted by code point), a field repeated 16 000 times.
 */
describe('deep or huge bodies under the limit are answered quickly (docs/reliability.md)', () => {
  const near = 64 * 1024 - 400;
  const cases: [string, string, string, string][] = [
    ['nested arrays', '/api/contact', '['.repeat(near), 'application/json'],
    ['nested objects', '/api/contact', '{"a":'.repeat(near / 5), 'application/json'],
    [
      'closed nesting',
      '/api/contact',
      `${'['.repeat(near / 2)}${']'.repeat(near / 2)}`,
      'application/json',
    ],
    [
      'backtracking e-mail',
      '/api/contact',
      JSON.stringify({ ...validContact, EMAIL: `a@${'a-'.repeat(near / 2 - 200)}!` }),
      'application/json',
    ],
    [
      'thousands of unknown keys',
      '/api/subscribe',
      JSON.stringify(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, 1]))),
      'application/json',
    ],
    [
      'thousands of answers (delivered)',
      '/api/audit',
      JSON.stringify({
        ...validAudit,
        formData: Object.fromEntries(Array.from({ length: 3500 }, (_, i) => [`q${i}`, 'oui'])),
      }),
      'application/json',
    ],
    [
      'emoji over the bound',
      '/api/contact',
      JSON.stringify({ ...validContact, DEMANDE: '😀'.repeat(15_000) }),
      'application/json',
    ],
    [
      'one form field repeated',
      '/api/subscribe',
      `email=lea%40example.fr&firstName=L&${'source=x&'.repeat(7000)}`,
      'application/x-www-form-urlencoded',
    ],
  ];

  for (const [name, url, body, type] of cases) {
    it(`${name}: an answer (not a 5xx) within 1 s`, async () => {
      expect(Buffer.byteLength(body)).toBeLessThan(64 * 1024);
      const started = performance.now();
      const response = await post(url, body, type);
      const elapsed = performance.now() - started;
      expect(response.statusCode).toBeLessThan(500);
      expect(elapsed).toBeLessThan(1000);
      // And the server is still itself afterwards.
      expect((await post('/api/subscribe', JSON.stringify(validSubscribe))).statusCode).toBe(200);
    });
  }
});
