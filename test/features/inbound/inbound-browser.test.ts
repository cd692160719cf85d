import { describe, expect, it } from 'vitest';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { axeViolations } from '../../helpers/browser-axe.ts';
import { useSiteInChromium } from '../../helpers/browser-site.ts';
import { validContact } from '../../helpers/app.ts';
import { acceptLead } from '../../helpers/test-stores.ts';
import { activeMember, signIn } from '../staff/staff-session.ts';

const SECRET = 'inbound-secret-0123456789abcdef';

/*
 * docs/inbound.md, « Ce que la fiche montre »: a reply carrying HTML and script is shown as text in
 * Chromium (no dialog opens), its quoted history folded; the page passes axe at 390 and 1,366 px.
 */
describe('a prospect’s reply on the lead page, in Chromium (docs/inbound.md)', () => {
  const chromium = useSiteInChromium({ INBOUND_SECRET: SECRET });

  it('shows HTML and script as text, opens no dialog, and fits the screen', async () => {
    const { origin, test } = chromium.served;
    const lead = { kind: 'contact', id: 'inbound-1', receivedAt: new Date(), data: validContact };
    await acceptLead(test.store, lead as Lead);
    const posted = await fetch(`${origin}/inbound/mail?secret=${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'message/rfc822' },
      body: [
        `From: ${validContact.EMAIL}`,
        'Subject: <img src=x onerror=alert(2)>',
        'Message-ID: <xss@example.fr>',
        '',
        'Bonjour <script>alert(1)</script><img src=x onerror=alert(3)>',
        '',
        '> Votre demande est bien arrivée.',
        '',
      ].join('\r\n'),
    });
    expect(posted.status).toBe(200);
    await activeMember(test.app, test.store, 'fiche@agence.fr', 'member');
    const { cookie } = await signIn(test.app, 'fiche@agence.fr');

    for (const width of [390, 1366]) {
      const page = await chromium.staffPage(width, cookie);
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`${origin}/equipe/prospects/inbound-1`);
      await expect.poll(() => page.getByText('Bonjour <script>alert(1)</script>').count()).toBe(1);
      // The quoted history is folded under its own disclosure.
      expect(await page.locator('details summary', { hasText: 'Historique cité' }).count()).toBe(1);
      expect(dialogs).toEqual([]);
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `wider than ${width} px`).toBeLessThanOrEqual(width);
    }
  }, 120_000);

  it('« À vérifier »: a waiting message’s search, its matches and « Écarter » fit a phone', async () => {
    const { origin, test } = chromium.served;
    const lead = { kind: 'contact', id: 'inbound-2', receivedAt: new Date(), data: validContact };
    await acceptLead(test.store, lead as Lead);
    const posted = await fetch(`${origin}/inbound/mail?secret=${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'message/rfc822' },
      body: [
        'From: une.adresse.tres.longue.que.personne.ne.connait@exemple-de-domaine-long.example',
        'Message-ID: <stranger@example.net>',
        '',
        'Bonjour, je vous écris de mon adresse professionnelle.',
        '',
      ].join('\r\n'),
    });
    expect(posted.status).toBe(200);
    const [waiting] = await test.store.inbound.unmatched(1);
    await activeMember(test.app, test.store, 'revue@agence.fr', 'member');
    const { cookie } = await signIn(test.app, 'revue@agence.fr');
    for (const width of [390, 1366]) {
      const page = await chromium.staffPage(width, cookie);
      await page.goto(`${origin}/equipe/a-verifier`);
      // docs/inbound.md, « Rattachement »: searched by name with the page's own GET form.
      await page.getByLabel('Rattacher à la demande de (nom ou e-mail)').fill('Dupont');
      await page.getByRole('button', { name: 'Chercher' }).click();
      await expect.poll(() => page.url()).toContain(`message=${waiting!.id}`);
      // Measured once its stylesheet is in (a submitted form's page may be parsed before).
      await page.waitForLoadState('load');
      expect(
        await page.getByRole('button', { name: 'Rattacher à Marie Dupont' }).count(),
      ).toBeGreaterThan(0);
      expect(await page.getByRole('button', { name: 'Écarter ce message' }).count()).toBe(1);
      expect(await axeViolations(page), `${width} px`).toEqual([]);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `wider than ${width} px`).toBeLessThanOrEqual(width);
    }
  }, 120_000);
});
