import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { emailOf } from '../../src/kernel/lead/lead.ts';
import { leadKindAt } from '../../src/kernel/schemas/lead-kinds.ts';
import { frenchNumber } from '../../src/kernel/schemas/french-text.ts';
import { FORM_MESSAGES, tooLongMessage } from '../../src/kernel/schemas/form-messages.ts';
import { hasChromium, watchProblems } from '../helpers/browser.ts';
import { axeViolations, withoutSiteScript } from '../helpers/browser-axe.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

/*
 * docs/site.md "Form errors": each form × each mistake, with JavaScript (checked before sending, or
 * refused by the API as JSON) and without (the server answers the form's page again), at 390 px,
 * and each form with a wrong address at 1,366 px: a French message next to the field, everything
 * typed kept, then corrected, the outcome's thank-you page and the lead in the journal with the
 * whole text.
 */

interface FormCase {
  path: string;
  action: string;
  /** Valid values by input name; the boxes to tick by name=value. */
  fields: Record<string, string>;
  boxes?: string[];
  email: string;
  long: string;
}

const LONG_TEXT = 'Description précise du projet. '.repeat(217).slice(0, 6700);

const FORMS: FormCase[] = [
  {
    path: '/contact',
    action: '/api/contact',
    fields: {
      PRENOM: 'Camille',
      NOM: 'Lefèvre',
      JOB_TITLE: 'Avocate à Lyon',
      SERVICE: 'Plus d’appels',
      DEMANDE: 'Mon cabinet n’apparaît pas sur Google Maps.',
    },
    boxes: ['TYPE_BESOIN=Attirer'],
    email: 'EMAIL',
    long: 'DEMANDE',
  },
  {
    path: '/diagnostic-gratuit',
    action: '/api/contact',
    fields: { PRENOM: 'Yann', DEMANDE: 'www.exemple.fr' },
    email: 'EMAIL',
    long: 'DEMANDE',
  },
  {
    path: '/newsletter',
    action: '/api/subscribe',
    fields: { firstName: 'Inès' },
    email: 'email',
    long: 'firstName',
  },
  {
    path: '/secteurs/btp',
    action: '/api/audit',
    fields: { firstName: 'Marc', lastName: 'Durand' },
    email: 'email',
    long: 'firstName',
  },
];

type Mistake = 'email' | 'tooLong' | 'choice' | 'missing';

/**
 * Without JavaScript the browser itself stops an empty required field: the server never sees it.
 * Every mistake at a phone's width; at a laptop's, where only the layout differs, one per form.
 */
function mistakesOf(form: FormCase, javaScript: boolean, width: number): Mistake[] {
  if (width > 390) return ['email'];
  const mistakes: Mistake[] = ['email', 'tooLong'];
  if (form.boxes) mistakes.push('choice');
  if (javaScript) mistakes.push('missing');
  return mistakes;
}

const WIDTHS = [390, 1366] as const;

const chromium = useSiteInChromium();
let counter = 0;

const control = (form: Locator, name: string) => form.locator(`[name="${name}"]`).first();

async function fill(form: Locator, values: Record<string, string>, boxes: string[]) {
  for (const [name, value] of Object.entries(values)) await control(form, name).fill(value);
  for (const box of boxes) {
    const [name, value] = box.split('=');
    await form.locator(`input[name="${name}"][value="${value}"]`).check();
  }
  await form.locator('.consent input[type=checkbox]').check();
}

/** The message next to the control (or at the end of its group), tied to it for screen readers. */
async function expectMessageBy(form: Locator, name: string, message: string) {
  const target = control(form, name);
  await expect(target.getAttribute('aria-invalid')).resolves.toBe('true');
  const describedBy = (await target.getAttribute('aria-describedby'))?.split(' ') ?? [];
  const errorId = describedBy.find((id) => id.endsWith('-erreur'));
  expect(errorId, name).toBeDefined();
  const error = form.locator(`[id="${errorId}"]`);
  await expect(error.textContent()).resolves.toBe(message);
  const placed = await error.evaluate((node, fieldName) => {
    const previous = node.previousElementSibling as HTMLInputElement | null;
    const group = node.parentElement?.tagName === 'FIELDSET' ? node.parentElement : null;
    return (
      previous?.name === fieldName || !!group?.querySelector(`[name="${CSS.escape(fieldName)}"]`)
    );
  }, name);
  expect(placed, `${name}: message right after its field`).toBe(true);
}

async function expectValuesKept(form: Locator, values: Record<string, string>, boxes: string[]) {
  for (const [name, value] of Object.entries(values)) {
    await expect(control(form, name).inputValue(), name).resolves.toBe(value);
  }
  for (const box of boxes) {
    const [name, value] = box.split('=');
    await expect(form.locator(`input[name="${name}"][value="${value}"]`).isChecked()).resolves.toBe(
      true,
    );
  }
}

async function open(path: string, javaScript: boolean, width: number): Promise<Page> {
  const context = await chromium.newContext({
    javaScriptEnabled: javaScript,
    locale: 'fr-FR',
    viewport: { width, height: 900 },
  });
  const page = await context.newPage();
  expect((await page.goto(chromium.served.origin + path))?.status()).toBe(200);
  return page;
}

describe.skipIf(!hasChromium())(
  'form errors a person can read (docs/site.md "Form errors")',
  () => {
    for (const width of WIDTHS) {
      for (const javaScript of [false, true]) {
        for (const target of FORMS) {
          for (const mistake of mistakesOf(target, javaScript, width)) {
            const mode = javaScript ? 'with JavaScript' : 'without JavaScript';
            it(`${width} px, ${mode}: ${target.path} × ${mistake} → message by the field, values kept; corrected, thank-you page`, async () => {
              const page = await open(target.path, javaScript, width);
              const problems = watchProblems(
                page,
                (url, status) => url.includes('/api/') && status === 400,
              );
              const form = page.locator(`form[action="${target.action}"]`).first();
              const email = `erreur-${++counter}@exemple.fr`;
              const values: Record<string, string> = { ...target.fields, [target.email]: email };
              let boxes = target.boxes ?? [];
              let faulty = target.email;
              let expected: string = FORM_MESSAGES.email;
              if (mistake === 'email') values[target.email] = 'camille@exemple';
              if (mistake === 'tooLong') {
                faulty = target.long;
                values[faulty] = target.long === 'DEMANDE' ? LONG_TEXT : 'É'.repeat(120);
                expected = tooLongMessage(
                  [...values[faulty]!].length,
                  faulty === 'DEMANDE' ? 5000 : 100,
                );
              }
              if (mistake === 'choice') {
                boxes = [];
                faulty = 'TYPE_BESOIN';
                expected = FORM_MESSAGES.choice;
              }
              if (mistake === 'missing') {
                faulty = Object.keys(target.fields)[0]!;
                values[faulty] = '';
                expected = FORM_MESSAGES.missing;
              }
              await fill(form, values, boxes);

              const answer = page
                .waitForResponse((response) => response.request().method() === 'POST', {
                  timeout: 3000,
                })
                .catch(() => undefined);
              await form.locator('button[type=submit]').click();
              if (!javaScript) {
                // The server's own page, at the status of the JSON answer, never the JSON itself.
                const response = await answer;
                expect(response?.status()).toBe(400);
                expect(response?.headers()['content-type']).toMatch(/^text\/html/);
                await page.waitForLoadState();
                await expect(page.title()).resolves.toMatch(/^Formulaire à corriger/);
              }
              await form.locator('.field-error').first().waitFor({ timeout: 5000 });
              // The person lands on the field to fix (autofocus without JavaScript, focus() with).
              await expect(
                page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name),
              ).resolves.toBe(faulty);
              await expectMessageBy(form, faulty, expected);
              await expectValuesKept(form, values, boxes);
              await expect(form.getByRole('alert').textContent()).resolves.toContain(
                FORM_MESSAGES.summary,
              );
              if (javaScript && mistake === 'tooLong' && faulty === 'DEMANDE') {
                await expect(form.locator('.counter.over').textContent()).resolves.toBe(
                  `${frenchNumber(6700)}\u00a0caractères sur ${frenchNumber(5000)}\u00a0: ${frenchNumber(1700)} de trop`,
                );
              }
              if (width === 390 && mistake === 'email' && javaScript) {
                expect(await axeViolations(page, `form[action="${target.action}"]`)).toEqual([]);
              }

              // Corrected: the message goes (as soon as the field is right, with JavaScript), and the
              // form goes through to its thank-you page with everything the person wrote.
              const fixed =
                mistake === 'tooLong'
                  ? values[faulty]!.slice(0, 90)
                  : (target.fields[faulty] ?? email);
              if (mistake === 'choice') {
                await form.locator('input[name="TYPE_BESOIN"][value="Engager"]').check();
                boxes = ['TYPE_BESOIN=Engager'];
              } else {
                await control(form, faulty).fill(fixed);
                values[faulty] = fixed;
              }
              if (javaScript) {
                await expect(form.locator('.field-error').count()).resolves.toBe(0);
                await expect(form.locator('.form-status').textContent()).resolves.toBe('');
              }
              await form.locator('.consent input[type=checkbox]').check();
              await form.locator('button[type=submit]').click();
              // With the promised time in ?reponse= (docs/emails.md, "The answer promised").
              const landing = chromium.served.origin + leadKindAt(target.action)!.thankYouPath;
              await page.waitForURL((url) => `${url.origin}${url.pathname}` === landing);
              const entries = (await chromium.served.test.store.list()).filter(
                (entry) => emailOf(entry.lead) === values[target.email],
              );
              expect(entries).toHaveLength(1);
              const data = entries[0]!.lead.data as Record<string, unknown>;
              for (const [name, value] of Object.entries(values)) {
                if (value) expect(data[name], name).toBe(value);
              }
              expect(problems).toEqual([]);
            });
          }
        }
      }
    }
  },
);

describe.skipIf(!hasChromium())('the page a refused form comes back as (no JavaScript)', () => {
  for (const target of FORMS) {
    it(`${target.path}: 0 axe violations at 390 px, with the error messages shown`, async () => {
      const context = await chromium.newContext({
        locale: 'fr-FR',
        viewport: { width: 390, height: 900 },
      });
      await withoutSiteScript(context);
      const page = await context.newPage();
      await page.goto(chromium.served.origin + target.path);
      const form = page.locator(`form[action="${target.action}"]`).first();
      await fill(
        form,
        { ...target.fields, [target.email]: 'camille@exemple', [target.long]: 'É'.repeat(5001) },
        target.boxes ?? [],
      );
      await form.locator('button[type=submit]').click();
      await page.waitForURL(chromium.served.origin + target.action);
      await expect(form.locator('.field-error').count()).resolves.toBe(2);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
});

describe.skipIf(!hasChromium())('the counter under a text with a limit (JavaScript)', () => {
  it('appears when the person reaches the field and counts as they type, before the limit', async () => {
    const context = await chromium.newContext({
      locale: 'fr-FR',
      viewport: { width: 390, height: 900 },
    });
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(chromium.served.origin + '/contact');
    const form = page.locator('form[action="/api/contact"]').first();
    // Nothing is added to the page at load (docs/site.md, "Measured here").
    await expect(form.locator('.counter').count()).resolves.toBe(0);

    const long = control(form, 'DEMANDE');
    await long.focus();
    const longCounter = form.locator('[id="' + (await long.getAttribute('id')) + '-compteur"]');
    await expect(longCounter.textContent()).resolves.toBe(
      `0 / ${frenchNumber(5000)}\u00a0caractères`,
    );
    await long.pressSequentially('Bonjour');
    await expect(longCounter.textContent()).resolves.toBe(
      `7 / ${frenchNumber(5000)}\u00a0caractères`,
    );
    await expect(longCounter.isVisible()).resolves.toBe(true);

    // A short field shows its counter only near its limit (80 %).
    const short = control(form, 'PRENOM');
    const limit = Number(await short.getAttribute('data-maxlength'));
    const shortCounter = form.locator('[id="' + (await short.getAttribute('id')) + '-compteur"]');
    await short.fill('a'.repeat(Math.ceil(limit * 0.8) - 1));
    await expect(shortCounter.isVisible()).resolves.toBe(false);
    await short.fill('a'.repeat(Math.ceil(limit * 0.8)));
    await expect(shortCounter.textContent()).resolves.toBe(
      `${frenchNumber(Math.ceil(limit * 0.8))} / ${frenchNumber(limit)}\u00a0caractères`,
    );
    await expect(shortCounter.isVisible()).resolves.toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });
});
