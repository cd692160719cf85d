import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError } from '../../helpers/api-assertions.ts';
import { buildTestApp, validContact, validSubscribe, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const PATHS = ['/api/contact', '/api/subscribe', '/api/audit'];

describe('spec 4 rule 1: JSON is accepted whatever its charset parameter', () => {
  for (const contentType of [
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'application/json; charset="utf-8"',
    'application/json; charset=iso-8859-1',
    'Application/JSON',
  ]) {
    it(`Content-Type: ${contentType}`, async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/subscribe',
        headers: { 'content-type': contentType },
        payload: JSON.stringify(validSubscribe),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    });
  }

  it('reads UTF-8 text as sent (accents and emoji reach the journal intact)', async () => {
    const PRENOM = 'Élodie 🌿';
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: Buffer.from(JSON.stringify({ ...validContact, PRENOM }), 'utf8'),
    });
    expect(response.statusCode, response.body).toBe(200);
    const entries = await t.store.list({ kinds: ['contact'] });
    expect(entries.map((entry) => 'PRENOM' in entry.lead.data && entry.lead.data.PRENOM)).toContain(
      PRENOM,
    );
  });
});

describe('spec 7: neither JSON nor a form is 415 unsupported_media_type', () => {
  const refused: [string, Record<string, string>, string | undefined][] = [
    ['no Content-Type and no body', {}, undefined],
    ['no Content-Type with a JSON body', {}, JSON.stringify(validContact)],
    ['text/plain', { 'content-type': 'text/plain' }, JSON.stringify(validContact)],
    [
      'multipart/form-data',
      { 'content-type': 'multipart/form-data; boundary=x' },
      '--x\r\nContent-Disposition: form-data; name="PRENOM"\r\n\r\nMarie\r\n--x--\r\n',
    ],
    ['text/json', { 'content-type': 'text/json' }, '{}'],
    ['application/jsonx', { 'content-type': 'application/jsonx' }, '{}'],
    ['application/xml', { 'content-type': 'application/xml' }, '<PRENOM>Marie</PRENOM>'],
  ];
  for (const [what, headers, payload] of refused) {
    for (const path of PATHS) {
      it(`${path}: ${what}`, async () => {
        const response = await t.app.inject({
          method: 'POST',
          url: path,
          headers,
          ...(payload !== undefined && { payload }),
        });
        const error = expectApiError(response, 415, 'unsupported_media_type');
        // Spec 7: the hint asks for Content-Type: application/json and a JSON object.
        expect(error.hint).toContain('Content-Type: application/json');
        expect(error.hint).toMatch(/objet JSON/);
      });
    }
  }

  it('a refused media type is checked before the body is validated', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'text/plain' },
      payload: 'bonjour',
    });
    expectApiError(response, 415, 'unsupported_media_type');
  });
});
