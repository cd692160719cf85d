import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import type { LeadKind } from '../../src/kernel/schemas/lead-kinds.ts';
import { emailOf } from '../../src/kernel/lead/lead.ts';
import { TOKEN_SHAPE } from '../../src/features/intake/forms/bot-trap.ts';
import { HTML_SECURITY_HEADERS } from '../../src/kernel/http/site/site-files.ts';
import { LEAD_KINDS } from '../../src/kernel/schemas/lead-kinds.ts';
import { SECTORS } from '../../src/kernel/schemas/sectors.ts';
import { hasChromium, watchProblems } from '../helpers/browser.ts';
import { asFormFields, fillWithKeyboard } from '../helpers/browser-forms.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

/** docs/quality.md: every form of the site: contact, diagnostic, newsletter, and the audit of each sector. */
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

const chromium = useSiteInChromium();

async function open(path: string, javaScriptEnabled: boolean) {
  const context = await chromium.newContext({ javaScriptEnabled, locale: 'fr-FR' });
  const page = await context.newPage();
  // The refusals a test provokes on purpose are expected; anything else (CSP included) is a fault.
  const problems = watchProblems(page, (url, status) => url.includes('/api/') && status === 400);
  const posts: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(request);
  });
  expect((await page.goto(chromium.served.origin + path))?.status(), path).toBe(200);
  return { page, problems, posts };
}

async function leadsFor(email: string) {
  const entries = await chromium.served.test.store.list();
  return entries.filter((entry) => emailOf(entry.lead) === email);
}

/** The e-mails the outbox provider wrote for a lead, parsed. */
async function outboxFor(leadId: string) {
  const dir = join(chromium.served.test.dataDir, 'outbox');
  const files = readdirSync(dir).filter((file) => file.includes(leadId) && file.endsWith('.eml'));
  return Promise.all(files.map((file) => PostalMime.parse(readFileSync(join(dir, file)))));
}

/** Each endpoint's own thank-you page (docs/site.md "Thank-you pages"), never the 404 page. */
function thankYouOf(action: string): string {
  const endpoint = LEAD_KINDS.find((candidate) => candidate.path === action);
  return endpoint?.thankYouPath ?? '(none)';
}

async function expectThankYou(page: Page, action: string) {
  // docs/emails.md, "The answer promised": with the promised time in ?reponse= where one is.
  const landing = chromium.served.origin + thankYouOf(action);
  await page.waitForURL((url) => `${url.origin}${url.pathname}` === landing, { timeout: 10_000 });
  await expect(page.locator('h1').textContent()).resolves.toMatch(/Merci|confirmez/);
  // Sent by the site's script, a contact or an audit lands with the day and time promised.
  if (new URL(page.url()).searchParams.has('reponse')) {
    await expect(page.locator('[data-answer-by]').textContent()).resolves.toMatch(
      /nous vous répondrons au plus tard \p{L}+ \d+/u,
    );
  }
}

describe.skipIf(!hasChromium())(
  'every form in real Chromium ("Forms that work for everyone", docs/quality.md)',
  () => {
    for (const javaScript of [true, false]) {
      for (const target of FORMS) {
        const mode = javaScript
          ? 'with JavaScript (form post by fetch, JSON answer)'
          : 'without JavaScript (HTML post, 303)';
        it(`${target.path}: filled with the keyboard and sent ${mode}, lands on ${thankYouOf(target.action)} and in the journal`, async () => {
          const { page, problems, posts } = await open(target.path, javaScript);
          const email = `${target.path.split('/').pop()}-${javaScript ? 'js' : 'sans-js'}@exemple.fr`;
          const form = page.locator(`form[action="${target.action}"]`).first();
          // What the page itself carries (sector, TOOL_SOURCE, source) must reach the journal too;
          // the consent declaration is kept apart from the lead's data (docs/api-decisions.md).
          const hidden = await form
            .locator('input[type=hidden]:not([name^="consent["]):not([name="form_token"])')
            .evaluateAll((inputs: HTMLInputElement[]) =>
              Object.fromEntries(inputs.map((input) => [input.name, input.value])),
            );
          const filled = await fillWithKeyboard(page, form, email);
          expect(filled.problems).toEqual([]);
          // A person takes at least the minimum fill time; a keyboard robot may not (bot-trap.test.ts).
          const token = await form.locator('input[name="form_token"]').inputValue();
          expect(token).toMatch(TOKEN_SHAPE);
          chromium.served.passFillTime();
          await page.keyboard.press('Enter'); // on the submit button, where the walk stopped

          await expectThankYou(page, target.action);
          expect(posts.map((post) => post.url())).toEqual([chromium.served.origin + target.action]);
          // Both send the form post, bot trap included (docs/api-decisions.md, "Bot trap").
          expect(posts[0]?.headers()['content-type']).toMatch(
            /^application\/x-www-form-urlencoded/,
          );
          expect(posts[0]?.postData()).toMatch(/(^|&)form_token=\d+\.[\w-]{22}(&|$)/);
          if (javaScript) expect(posts[0]?.headers().accept).toBe('application/json');
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

describe.skipIf(!hasChromium())(
  'the problem watcher sees CSP violations (so the tests above can fail)',
  () => {
    it('reports an inline style and an inline script refused by the site’s own CSP header', async () => {
      const context = await chromium.newContext();
      const page = await context.newPage();
      const problems = watchProblems(page);
      await page.route(`${chromium.served.origin}/csp-probe`, (route) =>
        route.fulfill({
          headers: { 'content-type': 'text/html; charset=utf-8', ...HTML_SECURITY_HEADERS },
          body: '<!doctype html><title>x</title><p style="color:red">x</p><script>1</script>',
        }),
      );
      await page.goto(`${chromium.served.origin}/csp-probe`);
      expect(problems.join('\n')).toMatch(/Content Security Policy directive 'style-src/);
      expect(problems.join('\n')).toMatch(/Content Security Policy directive 'script-src/);
    });
  },
);
