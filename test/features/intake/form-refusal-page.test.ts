import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_REFUSALS, rateLimitedMessage } from '../../../src/kernel/schemas/form-messages.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

let site: TestSite;
let t: TestApp;

beforeAll(async () => {
  site = await buildTestSite();
  t = await buildTestApp({
    siteDir: site.dir,
    env: { RATE_LIMIT_PER_MINUTE: '2', BODY_LIMIT_BYTES: '4096' },
  });
});
afterAll(async () => {
  await t?.close();
  site?.remove();
});

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const FORM = 'application/x-www-form-urlencoded';

const post = (url: string, payload: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': FORM, ...headers } });

const RATE_HEADERS = [
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

describe('a form post refused whole: a page for a person, JSON for a program (docs/api-decisions.md)', () => {
  it('413: a browser gets the form’s page with the reason under the title and a link to the form', async () => {
    const big = new URLSearchParams({ PRENOM: 'Léa', DEMANDE: 'é'.repeat(2000) }).toString();
    const response = await post('/api/contact', big, {
      accept: BROWSER,
      referer: 'http://x/contact',
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(response.body).toMatch(/^<!doctype html>/);
    expect(response.body).toContain('<title>Demande non envoyée · ');
    expect(response.body).toContain(
      `</h1>\n<div class="page-alert" role="alert"><p>${FORM_REFUSALS.tooLarge}</p><p><a href="#contact-PRENOM">Revenir au formulaire</a></p></div>`,
    );
    expect(response.body).toContain('id="contact-PRENOM"');

    const program = await post('/api/contact', big, { accept: 'application/json' });
    expect(program.statusCode).toBe(413);
    expect(program.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(program.json()).toMatchObject({ success: false, error: { code: 'payload_too_large' } });
  });

  it('429: a browser gets the page with the wait and the limiter’s headers; a program the same headers and JSON', async () => {
    const referer = { referer: 'http://x/secteurs/btp' };
    for (let i = 0; i < 2; i += 1) {
      expect(
        (await post('/api/audit', 'sector=btp', { accept: BROWSER, ...referer })).statusCode,
      ).toBe(400);
    }
    const page = await post('/api/audit', 'sector=btp', { accept: BROWSER, ...referer });
    expect(page.statusCode).toBe(429);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const seconds = page.headers['retry-after'] as string;
    expect(Number(seconds)).toBeGreaterThan(0);
    expect(page.body).toContain(`<p>${rateLimitedMessage(seconds)}</p>`);
    // The page the Referer names, the building trades' audit, its link to the first question.
    expect(page.body).toContain('<link rel="canonical" href="http://localhost:3000/secteurs/btp">');
    expect(page.body).toContain('<a href="#audit-q1">Revenir au formulaire</a>');

    const program = await post('/api/audit', 'sector=btp', { accept: 'application/json' });
    expect(program.statusCode).toBe(429);
    expect(program.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(program.json()).toEqual({
      success: false,
      error: {
        code: 'rate_limited',
        message: 'Trop de demandes envoyées depuis cette adresse en peu de temps.',
        hint: `Réessayez dans ${program.headers['retry-after']} secondes.`,
      },
    });
    for (const name of RATE_HEADERS) {
      expect(page.headers[name], name).toBeDefined();
      expect(program.headers[name], name).toBeDefined();
    }
  });

  it('JSON sent by a browser stays JSON', async () => {
    const json = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/subscribe',
        payload: '{}',
        headers: { 'content-type': 'application/json', accept: BROWSER },
      });
    await json();
    await json();
    const limited = await json();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(limited.json().error.code).toBe('rate_limited');
  });
});
