import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FORM_MESSAGES } from '../../src/kernel/schemas/form-messages.ts';
import { hasChromium } from '../helpers/browser.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

/*
 * docs/site.md "Forms within reach": on a page with a form, the call to action under the title goes
 * to that form; on a phone a button to it stays on screen; the required box group (the pillars) is
 * reported with the other fields on the first submit, with JavaScript or without.
 */

const PAGES = [
  { path: '/contact', action: '/api/contact' },
  { path: '/diagnostic-gratuit', action: '/api/contact' },
  { path: '/newsletter', action: '/api/subscribe' },
  { path: '/secteurs/btp', action: '/api/audit' },
];
const WIDTHS = [390, 1366] as const;
const HEIGHT = 844;

const chromium = useSiteInChromium();

async function open(path: string, width: number, javaScript = true): Promise<Page> {
  const context = await chromium.newContext({
    javaScriptEnabled: javaScript,
    locale: 'fr-FR',
    viewport: { width, height: HEIGHT },
  });
  const page = await context.newPage();
  expect((await page.goto(chromium.served.origin + path))?.status()).toBe(200);
  return page;
}

/** Whether the top of the element is on screen. */
const onScreen = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.top < window.innerHeight;
    });

describe.skipIf(!hasChromium())('forms within reach (docs/site.md)', () => {
  for (const width of WIDTHS) {
    for (const target of PAGES) {
      it(`${width} px: ${target.path}, the top call to action brings its own form on screen`, async () => {
        const page = await open(target.path, width);
        const cta = page.locator('article .cta .button').first();
        expect(await onScreen(page, 'article .cta .button')).toBe(true);
        await expect(cta.getAttribute('href')).resolves.toBe('#formulaire');
        await cta.click();
        await page.waitForFunction(() => location.hash === '#formulaire');
        expect(await onScreen(page, `#formulaire form[action="${target.action}"]`)).toBe(true);
      });
    }
  }

  for (const target of PAGES) {
    it(`390 px: ${target.path}, a button to the form stays on screen while reading, and leads to it`, async () => {
      const page = await open(target.path, 390);
      for (const y of [0, 900, 1800]) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        const reachable = await page.evaluate(() => {
          const form = document.querySelector('#formulaire')!.getBoundingClientRect();
          const jump = document.querySelector('.form-jump .button')!.getBoundingClientRect();
          const seen = (box: DOMRect) => box.top < window.innerHeight && box.bottom > 0;
          return seen(form) || (seen(jump) && jump.bottom <= window.innerHeight);
        });
        expect(reachable, `scrolled to ${y}`).toBe(true);
      }
      await page.evaluate(() => window.scrollTo(0, 900));
      await page.locator('.form-jump .button').click();
      await page.waitForFunction(() => location.hash === '#formulaire');
      expect(await onScreen(page, '#formulaire form')).toBe(true);
    });
  }

  for (const width of WIDTHS) {
    it(`${width} px, with JavaScript: the pillars are reported with the other fields on the first submit`, async () => {
      const page = await open('/contact', width);
      const form = page.locator('form[action="/api/contact"]');
      await form.locator('button[type=submit]').click();
      await form.locator('.field-error').first().waitFor();
      const group = form.locator('fieldset[data-field="TYPE_BESOIN"] .field-error');
      await expect(group.textContent()).resolves.toBe(FORM_MESSAGES.choice);
      await expect(form.locator('[name="PRENOM"]').getAttribute('aria-invalid')).resolves.toBe(
        'true',
      );
      await expect(
        form.locator('input[name="TYPE_BESOIN"]').first().getAttribute('aria-invalid'),
      ).resolves.toBe('true');
      // The first problem in the form's order is focused: the first name, above the group.
      await expect(
        page.evaluate(() => (document.activeElement as HTMLInputElement).name),
      ).resolves.toBe('PRENOM');
      // Ticking one box clears the group's message at once.
      await form.locator('input[name="TYPE_BESOIN"][value="Engager"]').check();
      await expect(group.count()).resolves.toBe(0);
    });

    it(`${width} px, without JavaScript: the server's page reports the pillars with the other fields`, async () => {
      const page = await open('/contact', width, false);
      const form = page.locator('form[action="/api/contact"]');
      // What the browser lets through (it cannot require one box of a group): a bad address, no box.
      await form.locator('[name="PRENOM"]').fill('Camille');
      await form.locator('[name="NOM"]').fill('Lefèvre');
      await form.locator('[name="EMAIL"]').fill('camille@exemple');
      await form.locator('[name="JOB_TITLE"]').fill('Avocate à Lyon');
      await form.locator('[name="SERVICE"]').fill('Plus d’appels');
      await form.locator('[name="DEMANDE"]').fill('Mon cabinet n’apparaît pas sur Google Maps.');
      await form.locator('.consent input[type=checkbox]').check();
      const [response] = await Promise.all([
        page.waitForResponse((answer) => answer.request().method() === 'POST'),
        form.locator('button[type=submit]').click(),
      ]);
      expect(response.status()).toBe(400);
      await page.waitForLoadState();
      const errors = await page
        .locator('form[action="/api/contact"] .field-error')
        .allTextContents();
      expect(errors).toContain(FORM_MESSAGES.email);
      expect(errors).toContain(FORM_MESSAGES.choice);
    });
  }
});
