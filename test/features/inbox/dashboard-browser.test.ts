import { describe, expect, it } from 'vitest';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { axeViolations } from '../../helpers/browser-axe.ts';
import { useSiteInChromium } from '../../helpers/browser-site.ts';
import { validAudit, validContact, validSubscribe } from '../../helpers/app.ts';
import { holdAsSpam, acceptLead } from '../../helpers/test-stores.ts';
import { activeMember, signIn } from '../staff/staff-session.ts';

/*
 * docs/workspace.md, « Le tableau de bord »: with leads, charts and tables on it, the page passes
 * axe in Chromium and fits a phone (390 px) and a laptop (1,366 px) without sideways scrolling.
 */
describe('the dashboard in Chromium (docs/workspace.md)', () => {
  const chromium = useSiteInChromium();

  it('passes axe and fits the screen at 390 and 1,366 px, with its charts drawn', async () => {
    const { origin, test } = chromium.served;
    const hour = 3_600_000;
    const leads: [Lead['kind'], object][] = [
      ['contact', validContact],
      ['audit', validAudit],
      ['subscribe', validSubscribe],
      ['contact', { ...validContact, PRENOM: 'Zoé' }],
    ];
    for (const [index, [kind, data]] of leads.entries()) {
      const receivedAt = new Date(Date.now() - (index + 1) * hour);
      await acceptLead(test.store, { kind, id: `nav-${index}`, receivedAt, data } as Lead);
    }
    const spam = {
      kind: 'subscribe',
      id: 'nav-spam',
      receivedAt: new Date(),
      data: validSubscribe,
    };
    await holdAsSpam(test.store, spam as Lead, 'too_fast');
    await activeMember(test.app, test.store, 'tableau@agence.fr', 'member');
    const { cookie } = await signIn(test.app, 'tableau@agence.fr');

    for (const width of [390, 1366]) {
      const page = await chromium.staffPage(width, cookie);
      await page.goto(`${origin}/equipe/tableau-de-bord`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Tableau de bord');
      expect(await page.getByRole('img', { name: 'Prospects reçus par type' }).count()).toBe(1);
      expect(await page.locator('svg rect').count()).toBeGreaterThan(0);
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `wider than ${width} px`).toBeLessThanOrEqual(width);
    }
  }, 120_000);
});
