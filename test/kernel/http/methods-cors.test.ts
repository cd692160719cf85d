import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectApiError, postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validSubscribe, type TestApp } from '../../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const PATHS = ['/api/contact', '/api/subscribe', '/api/audit'];
const ORIGIN = 'https://agent.example';

describe('spec 4 rule 2 and spec 7: any method but POST/OPTIONS is 405', () => {
  for (const path of PATHS) {
    for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
      it(`${method} ${path}`, async () => {
        const response = await t.app.inject({ method, url: path, headers: { origin: ORIGIN } });
        const error = expectApiError(response, 405, 'method_not_allowed');
        expect(response.headers.allow).toBe('POST, OPTIONS');
        // Spec 7: the message names the refused method and the path.
        expect(error.message).toContain(method);
        expect(error.message).toContain(path);
      });
    }

    it(`HEAD ${path}: 405 with Allow, and no body as HTTP wants`, async () => {
      const response = await t.app.inject({ method: 'HEAD', url: path });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('POST, OPTIONS');
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.body).toBe('');
    });
  }

  it('the method is judged before the body: a bad body on PUT is still 405', async () => {
    for (const [contentType, payload] of [
      ['application/json', '{mal formé'],
      ['text/plain', 'bonjour'],
      ['application/x-www-form-urlencoded', 'PRENOM=Marie'],
    ]) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/contact',
        headers: { 'content-type': contentType! },
        payload,
      });
      expectApiError(response, 405, 'method_not_allowed');
    }
  });

  it('a client that always sends Content-Type: application/json gets 405 on an empty DELETE', async () => {
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/subscribe',
      headers: { 'content-type': 'application/json' },
    });
    expectApiError(response, 405, 'method_not_allowed');
  });

  it('a query string does not change the path named in the message', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/contact?email=x' });
    expect(expectApiError(response, 405, 'method_not_allowed').message).not.toContain('email=x');
  });
});

describe('spec 7: an unknown path under /api/ is 404 not_found', () => {
  it('the path is judged before the body: bad JSON or a refused media type is still 404', async () => {
    for (const [contentType, payload] of [
      ['application/json', '{mal formé'],
      ['text/plain', 'bonjour'],
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/contacts',
        headers: { 'content-type': contentType! },
        payload,
      });
      expectApiError(response, 404, 'not_found');
    }
  });

  for (const [method, url] of [
    ['POST', '/api/contacts'],
    ['GET', '/api/'],
    ['POST', '/api/v1/contact'],
    ['DELETE', '/api/unknown/deep/path'],
  ] as const) {
    it(`${method} ${url}`, async () => {
      const response = await t.app.inject({
        method,
        url,
        headers: { 'content-type': 'application/json' },
        ...(method === 'POST' && { payload: '{}' }),
      });
      const error = expectApiError(response, 404, 'not_found');
      expect(error.message).toContain(url);
      expect(error.hint).toContain('/openapi.json');
    });
  }
});

describe('spec 1: CORS is open, preflight and every answer', () => {
  for (const path of PATHS) {
    it(`preflight OPTIONS ${path} allows any origin, POST and Content-Type`, async () => {
      const response = await t.app.inject({
        method: 'OPTIONS',
        url: path,
        headers: {
          origin: ORIGIN,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(response.statusCode).toBeLessThan(300);
      expect(response.headers['access-control-allow-origin']).toBe('*');
      expect(String(response.headers['access-control-allow-methods'])).toContain('POST');
      expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain(
        'content-type',
      );
    });
  }

  it('a bare OPTIONS (no preflight headers) is accepted, not 405', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/api/audit' });
    expect(response.statusCode).toBeLessThan(300);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('a success carries access-control-allow-origin', async () => {
    const response = await postJson(t.app, '/api/subscribe', validSubscribe, { origin: ORIGIN });
    expect(response.statusCode).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('errors carry it too: 400, 404, 405, 415 (checked by expectApiError)', async () => {
    expectApiError(
      await postJson(t.app, '/api/subscribe', {}, { origin: ORIGIN }),
      400,
      'missing_field',
    );
    expectApiError(await postJson(t.app, '/api/nope', {}, { origin: ORIGIN }), 404, 'not_found');
    expectApiError(
      await t.app.inject({ method: 'GET', url: '/api/audit', headers: { origin: ORIGIN } }),
      405,
      'method_not_allowed',
    );
    expectApiError(
      await t.app.inject({ method: 'POST', url: '/api/audit', headers: { origin: ORIGIN } }),
      415,
      'unsupported_media_type',
    );
  });
});
