import { describe, expect, it } from 'vitest';
import { useSiteInChromium } from '../../helpers/browser-site.ts';
import { activeMember, signIn } from '../staff/staff-session.ts';

/*
 * docs/workspace.md, « Bandeau »: while a delivery cause is open, every workspace page starts with
 * one line, about 48 px high on a 390 px phone, « Voir » in view, nothing scrolling sideways
 * (Debian's Chromium, the built site's stylesheet).
 */
describe('the delivery banner on a phone (docs/workspace.md, « Bandeau »)', () => {
  const s = useSiteInChromium();

  it('one line at 390 px, « Voir » visible, until the cause heals', async () => {
    const { test, origin } = s.served;
    await test.store.alerts.record(
      {
        key: 'webhook:crm.example:5d522fc6:failing',
        destination: 'webhook:crm.example:5d522fc6',
        provider: 'webhook',
        fix: 'vérifier que l’outil qui reçoit le webhook (crm.example) est en marche',
        said: 'UpstreamError: webhook:crm.example:5d522fc6 answered 500',
      },
      new Date(),
    );
    await activeMember(test.app, test.store, 'anne@agence.fr', 'member');
    const { cookie } = await signIn(test.app, 'anne@agence.fr');
    const [name, value] = cookie.split('=') as [string, string];
    const context = await s.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name, value, url: origin }]);
    const page = await context.newPage();
    await page.goto(`${origin}/equipe`);

    const banner = page.locator('.workspace-notice');
    await expect(banner.textContent()).resolves.toMatch(
      /^Livraison bloquée : le webhook vers crm\.example répond 500 depuis \d\d\sh\s\d\d — Voir$/,
    );
    const box = (await banner.boundingBox())!;
    expect(box.height).toBeLessThanOrEqual(48);
    const voir = (await page.getByRole('link', { name: 'Voir' }).boundingBox())!;
    expect(voir.x + voir.width).toBeLessThanOrEqual(390);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );

    await test.store.alerts.heal('webhook:crm.example:5d522fc6', new Date());
    await page.reload();
    await expect(page.locator('.workspace-notice').count()).resolves.toBe(0);
  }, 90_000);
});
