import { describe, expect, it } from 'vitest';
import { FORM_REFUSALS, rateLimitedMessage } from '../../src/kernel/schemas/form-messages.ts';
import { axeViolations, withoutSiteScript } from '../helpers/browser-axe.ts';
import { hasChromium, watchProblems } from '../helpers/browser.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

const chromium = useSiteInChromium({ RATE_LIMIT_PER_MINUTE: '1' });

describe.skipIf(!hasChromium())(
  'a form post refused whole, without JavaScript (docs/api-decisions.md, "Form errors")',
  () => {
    it('429: the newsletter page again, the wait in French under the title, a link down to the form, axe-clean', async () => {
      const context = await chromium.newContext({
        locale: 'fr-FR',
        viewport: { width: 390, height: 844 },
      });
      await withoutSiteScript(context);
      const page = await context.newPage();
      const problems = watchProblems(page);
      const send = async (email: string) => {
        await page.goto(`${chromium.served.origin}/newsletter`);
        const form = page.locator('form[action="/api/subscribe"]');
        await form.getByLabel('Prénom').fill('Léa');
        await form.getByLabel('Adresse e-mail').fill(email);
        await form.locator('input[type=checkbox]').check();
        const [response] = await Promise.all([
          page.waitForResponse((answer) => answer.url().endsWith('/api/subscribe')),
          form.getByRole('button').click(),
        ]);
        await page.waitForLoadState();
        return response;
      };

      expect((await send('premiere@exemple.fr')).status()).toBe(303);
      const refused = await send('seconde@exemple.fr');
      expect(refused.status()).toBe(429);
      const seconds = (await refused.headerValue('retry-after')) ?? '';
      expect(Number(seconds)).toBeGreaterThan(0);

      await expect(page.title()).resolves.toMatch(/^Demande non envoyée · /);
      const alert = page.locator('main .page-alert[role=alert]');
      await expect(alert.locator('p').first().textContent()).resolves.toBe(
        rateLimitedMessage(seconds),
      );
      expect(await axeViolations(page)).toEqual([]);
      await alert.getByRole('link', { name: FORM_REFUSALS.backToForm }).click();
      const target = new URL(page.url()).hash.slice(1);
      await expect(
        page.locator(`form[action="/api/subscribe"] [id="${target}"]`).count(),
      ).resolves.toBe(1);
      expect(problems).toEqual([]);
    }, 60_000);
  },
);
