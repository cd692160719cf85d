import { describe, expect, it } from 'vitest';
import { emailOf } from '../../src/kernel/lead/lead.ts';
import { axeViolations } from '../helpers/browser-axe.ts';
import { hasChromium, watchProblems } from '../helpers/browser.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

const chromium = useSiteInChromium();

async function open(javaScriptEnabled: boolean) {
  const context = await chromium.newContext({ javaScriptEnabled, locale: 'fr-FR' });
  const page = await context.newPage();
  const problems = watchProblems(page);
  expect((await page.goto(`${chromium.served.origin}/newsletter`))?.status()).toBe(200);
  const form = page.locator('form[action="/api/subscribe"]').first();
  return { page, problems, form, email: form.getByLabel('Adresse e-mail') };
}

/**
 * docs/site.md, « Vouliez-vous dire … ? »: with JavaScript, an e-mail whose domain looks like a big
 * provider's mistyped gets the intake's own suggestion under the field before sending, said by a
 * polite live region without taking the focus; its button fixes the field. Sent anyway, the lead is
 * accepted with the `email_typo` warning (docs/api-decisions.md). Without JavaScript, nothing changes.
 */
describe.skipIf(!hasChromium())('« Vouliez-vous dire … ? » on the forms, in Chromium', () => {
  it('suggests the likely address, fixes it on request, and keeps the focus where the person is', async () => {
    const { page, problems, form, email } = await open(true);
    await email.fill('lea@gmial.com');
    await page.keyboard.press('Tab');
    const suggestion = form.locator('#lettre-email-suggestion');
    await expect.poll(() => suggestion.textContent()).toContain('Vouliez-vous dire lea@gmail.com');
    expect(await suggestion.getAttribute('aria-live')).toBe('polite');
    expect(await axeViolations(page)).toEqual([]);
    // The Tab went on to the next field: the suggestion took no focus.
    expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('lettre-email');
    expect(
      await page.evaluate(() => document.activeElement?.closest('.email-suggestion')),
    ).toBeNull();
    await suggestion.getByRole('button', { name: 'Corriger l’adresse' }).click();
    expect(await email.inputValue()).toBe('lea@gmail.com');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('lettre-email');
    expect(await suggestion.textContent()).toBe('');
    // A right address says nothing.
    await email.fill('lea@orange.fr');
    await page.keyboard.press('Tab');
    expect(await suggestion.textContent()).toBe('');
    expect(problems).toEqual([]);
  });

  it('sends anyway: the lead is accepted as typed, with the email_typo warning', async () => {
    const { page, problems, form, email } = await open(true);
    await form.getByLabel('Prénom').fill('Léa');
    await email.fill('lea.envoi@hotmial.fr');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => form.locator('#lettre-email-suggestion').textContent())
      .toContain('lea.envoi@hotmail.fr');
    await form.locator('input[type=checkbox]').last().check();
    chromium.served.passFillTime();
    // The answer read on its way to the page, which leaves for the thank-you page at once.
    let body: { warnings?: { code: string }[] } | undefined;
    await page.route('**/api/subscribe', async (route) => {
      const response = await route.fetch();
      body = (await response.json()) as typeof body;
      await route.fulfill({ response });
    });
    await form.getByRole('button', { name: 'M’inscrire' }).click();
    await page.waitForURL((url) => url.pathname === '/newsletter/merci', { timeout: 10_000 });
    expect(body?.warnings?.map((warning) => warning.code)).toEqual(['email_typo']);
    const entries = await chromium.served.test.store.list();
    expect(entries.filter((entry) => emailOf(entry.lead) === 'lea.envoi@hotmial.fr')).toHaveLength(
      1,
    );
    expect(problems).toEqual([]);
  });

  it('without JavaScript, the form is as the server wrote it: no suggestion', async () => {
    const { page, form, email } = await open(false);
    await email.fill('lea@gmial.com');
    await page.keyboard.press('Tab');
    expect(await form.locator('.email-suggestion').count()).toBe(0);
    expect(await form.locator('button').count()).toBe(1);
  });
});
