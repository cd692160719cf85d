import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import PostalMime from 'postal-mime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LeadKind } from '../../src/domain/lead.ts';
import { emailOf } from '../../src/domain/lead.ts';
import { HTML_SECURITY_HEADERS } from '../../src/http/site-files.ts';
import { SECTORS } from '../../src/schemas/audit-request.ts';
import { hasChromium, launchChromium, watchProblems } from '../helpers/browser.ts';
import { axeViolations } from '../helpers/browser-axe.ts';
import { asFormFields, fillWithKeyboard } from '../helpers/browser-forms.ts';
import { serveBuiltSite, type ServedSite } from '../helpers/browser-site.ts';

const THANK_YOU = '/contact/merci';

/** Issue 3: every form of the site: contact, diagnostic, newsletter, and the audit of each sector. */
const FORMS: { path: string; action: string; kind: LeadKind }[] = [
  { path: '/contact', action: '/api/contact', kind: 'contact' },
  { path: '/diagnostic-gratuit', action: '/api/contact', kind: 'contact' },
  { path: '/newsletter', action: '/api/subscribe', kind: 'subscribe' },
  ...SECTORS.map((sector) => ({
    path: `/secteurs/${sector}`,
    action: '/api/audit',
    kind: 'audit' as const,
  })),
];

let served: ServedSite;
let browser: Browser;
let context: BrowserContext | undefined;

beforeAll(async () => {
  [served, browser] = await Promise.all([serveBuiltSite(), launchChromium()]);
});
afterEach(async () => {
  await context?.close();
  context = undefined;
});
afterAll(async () => {
  await browser?.close();
  await served?.close();
});

async function open(path: string, javaScriptEnabled: boolean) {
  context = await browser.newContext({ javaScriptEnabled, locale: 'fr-FR' });
  const page = await context.newPage();
  // The refusals a test provokes on purpose are expected; anything else (CSP included) is a fault.
  const problems = watchProblems(page, (url, status) => url.includes('/api/') && status === 400);
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request);
  });
  expect((await page.goto(served.origin + path))?.status(), path).toBe(200);
  return { page, problems, posts };
}

async function leadsFor(email: string) {
  const entries = await served.test.store.list();
  return entries.filter((entry) => emailOf(entry.lead) === email);
}

/** The e-mails the outbox provider wrote for a lead, parsed. */
async function outboxFor(leadId: string) {
  const dir = join(served.test.dataDir, 'outbox');
  const files = readdirSync(dir).filter((file) => file.includes(leadId) && file.endsWith('.eml'));
  return Promise.all(files.map((file) => PostalMime.parse(readFileSync(join(dir, file)))));
}

async function expectThankYou(page: Page) {
  await page.waitForURL(served.origin + THANK_YOU, { timeout: 10_000 });
  await expect(page.locator('h1').textContent()).resolves.toMatch(/^Merci/);
}

describe.skipIf(!hasChromium())(
  'every form in real Chromium (issue 3 "Forms that work for everyone")',
  () => {
    for (const javaScript of [true, false]) {
      for (const target of FORMS) {
        const mode = javaScript ? 'with JavaScript (JSON)' : 'without JavaScript (HTML post, 303)';
        it(`${target.path}: filled with the keyboard and sent ${mode}, lands on ${THANK_YOU} and in the journal`, async () => {
          const { page, problems, posts } = await open(target.path, javaScript);
          const email = `${target.path.split('/').pop()}-${javaScript ? 'js' : 'sans-js'}@exemple.fr`;
          const form = page.locator(`form[action="${target.action}"]`).first();
          // What the page itself carries (sector, TOOL_SOURCE, source) must reach the journal too.
          const hidden = await form
            .locator('input[type=hidden]')
            .evaluateAll((inputs: HTMLInputElement[]) =>
              Object.fromEntries(inputs.map((input) => [input.name, input.value])),
            );
          const filled = await fillWithKeyboard(page, form, email);
          expect(filled.problems).toEqual([]);
          await page.keyboard.press('Enter'); // on the submit button, where the walk stopped

          await expectThankYou(page);
          expect(posts.map((post) => post.url())).toEqual([served.origin + target.action]);
          expect(posts[0]?.headers()['content-type']).toMatch(
            javaScript ? /^application\/json/ : /^application\/x-www-form-urlencoded/,
          );
          const [entry, ...others] = await leadsFor(email);
          expect(others).toEqual([]);
          expect(entry?.lead.kind).toBe(target.kind);
          expect(asFormFields(entry?.lead.data ?? {})).toMatchObject({ ...hidden, ...filled.sent });
          expect(entry?.status).toBe('delivered');
          const mails = await outboxFor(entry?.lead.id ?? '');
          expect(mails.map((mail) => mail.text).join('\n')).toContain(email);
          expect(problems).toEqual([]);
        });
      }
    }
  },
);

/** Refusals the browser's own checks let through, so only the server catches them (spec 3). */
const REFUSALS = [
  {
    path: '/contact',
    action: '/api/contact',
    field: 'EMAIL',
    why: 'an address without a domain extension',
  },
  {
    path: '/newsletter',
    action: '/api/subscribe',
    field: 'email',
    why: 'an address without a domain extension',
  },
  {
    path: '/secteurs/btp',
    action: '/api/audit',
    field: 'firstName',
    why: 'a first name past maxlength (set by script)',
  },
];

describe.skipIf(!hasChromium())(
  'server refusals shown next to the field, with JavaScript (issue 3)',
  () => {
    for (const refusal of REFUSALS) {
      it(`${refusal.path}: ${refusal.why} → French message by the field, announced; corrected, it goes through`, async () => {
        const { page, problems } = await open(refusal.path, true);
        const good = `correction-${refusal.path.split('/').pop()}@exemple.fr`;
        const form = page.locator(`form[action="${refusal.action}"]`).first();
        const isEmail = refusal.field.toLowerCase() === 'email';
        // type=email accepts "nom@domaine" (HTML spec); the API wants a dotted domain.
        await fillWithKeyboard(page, form, isEmail ? 'camille@exemple' : good);
        const control = form.locator(`[name="${refusal.field}"]`);
        if (!isEmail)
          await control.evaluate((input: HTMLInputElement) => (input.value = 'C'.repeat(101)));
        const answer = page.waitForResponse((response) => response.url().endsWith(refusal.action));
        await page.keyboard.press('Enter');
        const refused = await (await answer).json();
        expect(refused.error.code).toBe('invalid_field');

        // The API's sentence, with the field's label in place of its technical name.
        const label = (
          await control.evaluate((input: HTMLInputElement) => input.labels?.[0]?.textContent ?? '')
        )
          .replace(/\s*(\*|\(facultatif\))\s*$/, '')
          .trim();
        const sentence = refused.error.message.replace(/«[^»]+»/, `« ${label} »`);
        const error = control.locator(
          'xpath=following-sibling::*[contains(@class, "field-error")]',
        );
        await expect(error.textContent()).resolves.toBe(sentence);
        await expect(control.getAttribute('aria-invalid')).resolves.toBe('true');
        const describedBy = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
        expect(describedBy).toContain(await error.getAttribute('id'));
        await expect(form.getByRole('alert').textContent()).resolves.toContain(sentence);
        await expect(control.evaluate((input) => input === document.activeElement)).resolves.toBe(
          true,
        );
        expect(page.url()).toBe(served.origin + refusal.path);
        // The error state is accessible too (links to real ids, contrast of the error text).
        expect(await axeViolations(page, `form[action="${refusal.action}"]`)).toEqual([]);

        // The person corrects the field where the focus now is and sends again with Enter.
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type(isEmail ? good : 'Camille');
        await page.keyboard.press('Enter');
        await expectThankYou(page);
        expect((await leadsFor(good)).map((entry) => entry.lead.kind)).toHaveLength(1);
        expect(await leadsFor('camille@exemple')).toEqual([]);
        expect(problems).toEqual([]);
      });
    }
  },
);

describe.skipIf(!hasChromium())(
  'the problem watcher sees CSP violations (so the tests above can fail)',
  () => {
    it('reports an inline style and an inline script refused by the site’s own CSP header', async () => {
      context = await browser.newContext();
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.route(`${served.origin}/csp-probe`, (route) =>
        route.fulfill({
          headers: { 'content-type': 'text/html; charset=utf-8', ...HTML_SECURITY_HEADERS },
          body: '<!doctype html><title>x</title><p style="color:red">x</p><script>1</script>',
        }),
      );
      await page.goto(`${served.origin}/csp-probe`);
      expect(problems.join('\n')).toMatch(/Content Security Policy directive 'style-src/);
      expect(problems.join('\n')).toMatch(/Content Security Policy directive 'script-src/);
    });
  },
);
