import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { mailPreviews, PREVIEWS } from '../../../src/cli/mail-previews.ts';
import { axeViolations } from '../../helpers/browser-axe.ts';
import { hasChromium, workerChromium } from '../../helpers/browser.ts';

/*
 * docs/emails.md, "Accessibility": each e-mail's HTML, as Chromium renders it with JavaScript off
 * and no network (as a mail client shows it), passes axe (WCAG 2.x A/AA, colour contrast included),
 * is in French with a title, and uses tables for the layout only.
 */
const SETTINGS = {
  from: 'Repère <bonjour@agence-test.fr>',
  agencyEmail: 'equipe@agence-test.fr',
  siteUrl: 'https://www.agence-test.fr',
  identity: mailIdentity(),
};
const PAGE_LEVEL_RULES = ['landmark-one-main', 'region'];
const MAILS = [
  ...new Map(
    PREVIEWS.flatMap((name) => mailPreviews(name, SETTINGS)).map((mail) => [mail.name, mail]),
  ).values(),
];

describe.skipIf(!hasChromium())('the e-mails’ HTML in Chromium (docs/emails.md)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await workerChromium();
  });

  it('covers the confirmation, the double opt-in, every notification and the team’s summary', () => {
    expect(MAILS.map((mail) => mail.name).sort()).toEqual([
      'audit-notification',
      'contact-confirmation',
      'contact-notification',
      'subscribe-notification',
      'subscribe-opt-in',
      'team-summary',
    ]);
  });

  it.each(MAILS.map((mail) => [mail.name, mail.message.html]))(
    '%s: axe finds nothing; lang="fr", a title, layout tables marked presentation',
    async (_name, html) => {
      // axe runs as an evaluated script: JavaScript stays on, the e-mail itself has none.
      const context = await browser.newContext({ offline: true, locale: 'fr-FR' });
      try {
        const page = await context.newPage();
        await page.setContent(html);
        // A mail client shows the e-mail inside its own page, whose landmarks hold it: the
        // page-level rules (one main landmark, all content in landmarks) are the client's.
        expect(await axeViolations(page, undefined, PAGE_LEVEL_RULES)).toEqual([]);
        expect(await page.getAttribute('[role="article"]', 'aria-roledescription')).toBe('e-mail');
        expect(await page.getAttribute('html', 'lang')).toBe('fr');
        expect((await page.title()).length).toBeGreaterThan(0);
        const tables = await page.$$eval('table', (found) =>
          found.map((table) => table.getAttribute('role')),
        );
        expect(tables.length).toBeGreaterThan(0);
        expect(tables.every((role) => role === 'presentation')).toBe(true);
        expect(await page.$$eval('h1', (found) => found.length)).toBe(1);
      } finally {
        await context.close();
      }
    },
  );
});
