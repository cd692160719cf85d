import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inviteStaff } from '../../src/workspace/invitations.ts';
import { axeViolations, withAxe } from '../helpers/browser-axe.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';
import { watchProblems } from '../helpers/browser.ts';

const PASSWORD = 'le café du matin est prêt';

/**
 * docs/workspace.md: invite → set the password → sign in → the admin's pages → sign out, in Debian's
 * Chromium, on a phone (390 px) and a laptop (1,366 px), with JavaScript on and off. The pages carry
 * no script, so both runs post native forms; axe runs where scripts run.
 */
describe('the workspace in Chromium (docs/workspace.md)', () => {
  const chromium = useSiteInChromium();

  /** axe on the page (JavaScript on only), and no page wider than the screen. */
  async function check(page: Page, width: number, javaScript: boolean) {
    if (javaScript) {
      expect(await axeViolations(page), page.url()).toEqual([]);
    }
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${page.url()} is wider than the screen`).toBeLessThanOrEqual(width);
  }

  for (const width of [390, 1366]) {
    for (const javaScript of [true, false]) {
      it(`invite, set a password, sign in and out at ${width} px, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
        const { origin, test } = chromium.served;
        const email = `admin-${width}-${javaScript ? 'js' : 'nojs'}@agence.fr`;
        const { link } = await inviteStaff(test.store, {
          email,
          role: 'admin',
          siteUrl: origin,
          now: new Date(),
          invitedBy: null,
        });
        const context = await chromium.newContext({
          viewport: { width, height: 800 },
          javaScriptEnabled: javaScript,
        });
        if (javaScript) await withAxe(context);
        const page = await context.newPage();
        const problems = watchProblems(page, (_url, status) => status === 401);

        await page.goto(link);
        await check(page, width, javaScript);
        await page.getByLabel('Votre nom').fill('Camille Martin');
        await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
        await page.getByLabel(/^Le même mot de passe/).fill(PASSWORD);
        await page.getByRole('button', { name: 'Enregistrer mon mot de passe' }).click();
        await page.waitForURL(`${origin}/equipe/connexion?bienvenue`);
        await expect.poll(() => page.getByRole('status').textContent()).toContain('connectez-vous');
        await check(page, width, javaScript);

        // A wrong password first: the refusal is on the page, announced.
        await page.getByLabel(/^Adresse e-mail/).fill(email);
        await page.getByLabel(/^Mot de passe/).fill('pas le bon mot de passe');
        await page.getByRole('button', { name: 'Se connecter' }).click();
        await expect.poll(() => page.getByRole('alert').textContent()).toContain('incorrect');
        await check(page, width, javaScript);
        await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
        await page.getByRole('button', { name: 'Se connecter' }).click();
        await page.waitForURL(`${origin}/equipe`);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Prospects');
        await check(page, width, javaScript);

        for (const [path, title] of [
          ['/equipe/equipe', 'Équipe'],
          ['/equipe/journal', 'Journal d’activité'],
          ['/equipe/compte', 'Mon compte'],
        ]) {
          await page.goto(`${origin}${path}`);
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
          await check(page, width, javaScript);
        }
        // The sign-in is in the trail the admin reads.
        await page.goto(`${origin}/equipe/journal`);
        expect(await page.locator('table').textContent()).toContain(email);

        await page.getByRole('button', { name: 'Se déconnecter' }).click();
        await page.waitForURL(`${origin}/equipe/connexion?au_revoir`);
        await page.goto(`${origin}/equipe/journal`);
        await page.waitForURL(`${origin}/equipe/connexion?suite=/equipe/journal`);
        expect(problems).toEqual([]);
      }, 240_000);
    }
  }
});
