import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBotTrap } from '../../src/features/intake/forms/bot-trap.ts';
import { buildTestApp, validContact, type TestApp } from '../helpers/app.ts';
import { startFakeBrevo, type FakeBrevo } from '../helpers/fake-brevo.ts';
import { buildTestSite, type TestSite } from '../helpers/site.ts';

/*
 * docs/api-decisions.md, "Bot trap": a site form post that fills the honeypot, or comes sooner than
 * FORM_MIN_FILL_SECONDS after its page was served (a signed time), is answered exactly as a real
 * one, journaled as `spam` and handed to no provider. JSON requests (agents) have no trap.
 */

const FORM = 'application/x-www-form-urlencoded';
const TOKEN = /name="form_token" value="([^"]*)"/;

let site: TestSite;
let harness: TestApp | undefined;
let brevo: FakeBrevo | undefined;

beforeAll(async () => {
  site = await buildTestSite();
});
afterAll(() => site?.remove());
afterEach(async () => {
  await harness?.close();
  await brevo?.close();
  harness = brevo = undefined;
});

async function serve(env: Record<string, string> = {}) {
  harness = await buildTestApp({ siteDir: site.dir, env: { MAIL_PROVIDER: 'outbox', ...env } });
  return harness;
}

/** The token of the page as served now (what a bot that fetches and posts at once sends). */
async function servedToken(app: TestApp, path = '/newsletter'): Promise<string> {
  const page = await app.app.inject({ url: path });
  return TOKEN.exec(page.body)?.[1] ?? '(none)';
}

/** A token this service issued `ms` ago: the page a person kept open that long. */
async function tokenServedAgo(app: TestApp, ms: number): Promise<string> {
  const trap = createBotTrap(await app.store.secret('form-token'), { minFillMs: 0 });
  return trap.issue(Date.now() - ms);
}

function post(
  app: TestApp,
  url: string,
  fields: Record<string, string>,
  accept = 'text/html,application/xhtml+xml,*/*;q=0.8',
) {
  return app.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': FORM, accept },
    payload: new URLSearchParams(fields).toString(),
  });
}

const subscriber = (email: string) => ({ email, firstName: 'Léa', source: 'site:/newsletter' });

/** What a caller can observe of an answer, apart from what differs on every answer. */
function observable(answer: Awaited<ReturnType<typeof post>>) {
  const { date, 'x-request-id': id, ...headers } = answer.headers;
  void [date, id];
  return { status: answer.statusCode, headers, body: answer.body };
}

function outboxFiles(app: TestApp): string[] {
  const dir = join(app.dataDir, 'outbox');
  return existsSync(dir) ? readdirSync(dir) : [];
}

async function statusOf(app: TestApp, email: string) {
  const entries = await app.store.list();
  return entries
    .filter((entry) => JSON.stringify(entry.lead.data).includes(email))
    .map((entry) => entry.status);
}

describe('form pages carry a signed time, fresh at each second (docs/api-decisions.md, "Bot trap")', () => {
  it('serves the token in place of the build’s placeholder, never cached by a shared cache', async () => {
    const app = await serve();
    const page = await app.app.inject({ url: '/newsletter' });
    const token = TOKEN.exec(page.body)?.[1];
    expect(token).toMatch(/^\d+\.[\w-]{22}$/);
    expect(Math.abs(Number(token!.split('.')[0]) * 1000 - Date.now())).toBeLessThan(60_000);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    // Weak: the page means the same whatever its token; a 304 keeps the cache's older token.
    expect(page.headers.etag).toMatch(/^W\/"[^"]+"$/);
    const again = await app.app.inject({
      url: '/newsletter',
      headers: { 'if-none-match': String(page.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    const br = await app.app.inject({ url: '/newsletter', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toMatch(/value="\d+\.[\w-]{22}"/);
    // The trap, as a person never meets it: off-screen, hidden from screen readers, out of Tab.
    expect(page.body).toMatch(
      /<div class="trap" aria-hidden="true">\n<label for="subscribe-website">[^<]+<\/label>\n<input type="text" id="subscribe-website" name="website" tabindex="-1" autocomplete="off"/,
    );
    // A page without a form keeps its long public cache and strong ETag.
    const plain = await app.app.inject({ url: '/mentions-legales' });
    expect(plain.headers['cache-control']).toBe('public, max-age=300');
    expect(plain.body).not.toMatch(TOKEN);
  });
});

describe('a trapped form post is answered like a real one, journaled as spam, never delivered', () => {
  it('honeypot filled: the same 303 to the thank-you page; nothing reaches the outbox', async () => {
    const app = await serve();
    const oldEnough = await tokenServedAgo(app, 60_000);
    const real = await post(app, '/api/subscribe', {
      ...subscriber('lea@example.fr'),
      website: '',
      form_token: oldEnough,
    });
    const filesAfterReal = outboxFiles(app).length;
    const trapped = await post(app, '/api/subscribe', {
      ...subscriber('bot@example.fr'),
      website: 'https://spam.example',
      form_token: oldEnough,
    });
    expect(observable(trapped)).toEqual(observable(real));
    expect(trapped.statusCode).toBe(303);
    expect(trapped.headers.location).toBe('/newsletter/merci');
    expect(await statusOf(app, 'lea@example.fr')).toEqual(['delivered']);
    expect(await statusOf(app, 'bot@example.fr')).toEqual(['spam']);
    expect(filesAfterReal).toBeGreaterThan(0);
    expect(outboxFiles(app)).toHaveLength(filesAfterReal);
    const [spam] = await app.store.list({ statuses: ['spam'] });
    expect(await app.store.deliveries.steps(spam!.lead.id)).toEqual([]);
  });

  it('too fast: the token of the page just fetched, sent at once by script (JSON answer)', async () => {
    const app = await serve();
    const accept = 'application/json';
    const fresh = await servedToken(app);
    const trapped = await post(
      app,
      '/api/subscribe',
      { ...subscriber('fast@example.fr'), form_token: fresh },
      accept,
    );
    const real = await post(
      app,
      '/api/subscribe',
      { ...subscriber('person@example.fr'), form_token: await tokenServedAgo(app, 5_000) },
      accept,
    );
    expect(observable(trapped)).toEqual(observable(real));
    expect(trapped.json()).toMatchObject({ success: true, existing: false });
    expect(await statusOf(app, 'fast@example.fr')).toEqual(['spam']);
    expect(await statusOf(app, 'person@example.fr')).toEqual(['delivered']);
    expect(outboxFiles(app).join(' ')).not.toContain(
      (await app.store.list({ statuses: ['spam'] }))[0]!.lead.id,
    );
  });

  it('a tampered token is not trusted: an older second under the same MAC, or another key', async () => {
    const app = await serve();
    const [second, mac] = (await servedToken(app)).split('.');
    const older = `${Number(second) - 3600}.${mac}`;
    const otherKey = createBotTrap('another key', { minFillMs: 0 }).issue(Date.now() - 3_600_000);
    for (const [email, token] of [
      ['older@example.fr', older],
      ['other-key@example.fr', otherKey],
      ['garbage@example.fr', 'x"><script>'],
    ] as const) {
      const answer = await post(app, '/api/subscribe', { ...subscriber(email), form_token: token });
      expect(answer.statusCode).toBe(303);
      expect(await statusOf(app, email), email).toEqual(['spam']);
    }
    expect(outboxFiles(app)).toEqual([]);
  });

  it('a page kept open for hours still sends; a form post without a token is delivered', async () => {
    const app = await serve();
    const hoursOld = await tokenServedAgo(app, 6 * 3_600_000);
    await post(app, '/api/subscribe', { ...subscriber('late@example.fr'), form_token: hoursOld });
    // A page built or cached before the trap, or a script posting the form: no time to check.
    await post(app, '/api/subscribe', subscriber('untimed@example.fr'));
    expect(await statusOf(app, 'late@example.fr')).toEqual(['delivered']);
    expect(await statusOf(app, 'untimed@example.fr')).toEqual(['delivered']);
  });

  it('spam leaves no trace a person would meet: the same body later is a new lead, not `existing`', async () => {
    const app = await serve();
    const body = subscriber('same@example.fr');
    await post(
      app,
      '/api/subscribe',
      { ...body, form_token: await servedToken(app) },
      'application/json',
    );
    const later = await post(
      app,
      '/api/subscribe',
      { ...body, form_token: await tokenServedAgo(app, 10_000) },
      'application/json',
    );
    expect(later.json()).toMatchObject({ success: true, existing: false });
    expect(await statusOf(app, 'same@example.fr')).toEqual(['spam', 'delivered']);
  });

  it('a refused form post gets its page back with the token it sent, not a new one', async () => {
    const app = await serve();
    const token = await tokenServedAgo(app, 2_000);
    const refused = await post(app, '/api/subscribe', {
      email: 'pas-une-adresse',
      firstName: 'Léa',
      source: 'site:/newsletter',
      form_token: token,
    });
    expect(refused.statusCode).toBe(400);
    expect(TOKEN.exec(refused.body)?.[1]).toBe(token);
    expect(refused.body).not.toContain('value="unsigned"');
  });

  it('a post refused whole (413) gets its page with a token signed then: a person who retries from it after the minimum is not spam', async () => {
    const app = await serve({ FORM_MIN_FILL_SECONDS: '2', BODY_LIMIT_BYTES: '4096' });
    const refused = await post(app, '/api/subscribe', {
      ...subscriber('lea@example.fr'),
      firstName: 'é'.repeat(2000),
      form_token: await servedToken(app),
    });
    expect(refused.statusCode).toBe(413);
    const token = TOKEN.exec(refused.body)?.[1] ?? '(none)';
    expect(token).toMatch(/^\d+\.[\w-]{22}$/);

    // Timed from the refusal: a retry at once is too fast, one after the minimum is a person's.
    await post(app, '/api/subscribe', { ...subscriber('at-once@example.fr'), form_token: token });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const retried = await post(app, '/api/subscribe', {
      ...subscriber('lea@example.fr'),
      form_token: token,
    });
    expect(retried.statusCode).toBe(303);
    expect(await statusOf(app, 'at-once@example.fr')).toEqual(['spam']);
    expect(await statusOf(app, 'lea@example.fr')).not.toContain('spam');
    expect(await statusOf(app, 'lea@example.fr')).toHaveLength(1);
  });
});

describe('agents’ JSON requests have no trap (spec unchanged)', () => {
  it('a JSON body without trap fields is delivered; with one, refused as an unknown field', async () => {
    const app = await serve();
    const accepted = await app.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: validContact,
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ success: true });
    expect(await statusOf(app, validContact.EMAIL)).toEqual(['delivered']);
    const strict = await app.app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: { ...validContact, EMAIL: 'other@example.fr', website: 'x' },
    });
    expect(strict.statusCode).toBe(400);
    expect(strict.json().error).toMatchObject({ code: 'invalid_field', field: 'website' });
  });
});

describe('the dispatcher never picks spam up (Brevo stand-in)', () => {
  it('a trapped contact post sends nothing to Brevo; a real one, sent beside it, is delivered', async () => {
    brevo = await startFakeBrevo('k');
    const app = await serve({
      MAIL_PROVIDER: 'brevo',
      BREVO_API_KEY: 'k',
      BREVO_API_URL: brevo.url,
      BREVO_NEWSLETTER_LIST_ID: '8',
      DELIVERY: 'queued',
    });
    app.app.dispatcher.start();
    const contact = (email: string) => ({ PRENOM: 'x', EMAIL: email, TOOL_SOURCE: 'diagnostic' });
    await post(app, '/api/contact', { ...contact('bot@example.fr'), website: 'x' });
    await post(app, '/api/contact', { ...contact('human@example.fr'), website: '' });
    const deadline = Date.now() + 20_000;
    while ((await statusOf(app, 'human@example.fr'))[0] !== 'delivered') {
      if (Date.now() > deadline) throw new Error('the real lead was not delivered in time');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await app.app.dispatcher.stop();
    expect(await statusOf(app, 'bot@example.fr')).toEqual(['spam']);
    const sentBodies = brevo.requests.map((request) => JSON.stringify(request.body));
    expect(sentBodies.some((body) => body.includes('human@example.fr'))).toBe(true);
    expect(sentBodies.some((body) => body.includes('bot@example.fr'))).toBe(false);
  });
});
