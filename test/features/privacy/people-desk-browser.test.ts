import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/api-assertions.ts';
import { validContact } from '../../helpers/app.ts';
import { axeViolations } from '../../helpers/browser-axe.ts';
import { useSiteInChromium } from '../../helpers/browser-site.ts';
import { BROWSER_PASSWORD, signedInPage } from '../../helpers/browser-staff.ts';

/**
 * docs/workspace-privacy.md, « Personnes et RGPD »: find a person, download them, erase them (gone
 * from the journal and the outbox), then the register and the opt-out list, in Debian's Chromium at
 * 390 and 1,366 px, JavaScript on and off; axe on every page where scripts run.
 */
describe('the people desk in Chromium (docs/workspace-privacy.md)', () => {
  const chromium = useSiteInChromium();

  async function check(page: Page, width: number, javaScript: boolean) {
    if (javaScript) expect(await axeViolations(page), page.url()).toEqual([]);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${page.url()} is wider than the screen`).toBeLessThanOrEqual(width);
  }

  for (const width of [390, 1366]) {
    for (const javaScript of [true, false]) {
      it(`finds, downloads and erases a person at ${width} px, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
        const { origin, test } = chromium.served;
        const run = `${width}-${javaScript ? 'js' : 'nojs'}`;
        const person = `marie-${run}@example.fr`;
        await postJson(test.app, '/api/contact', { ...validContact, EMAIL: person });
        const outbox = () =>
          readdirSync(join(test.dataDir, 'outbox')).map((name) =>
            readFileSync(join(test.dataDir, 'outbox', name), 'utf8'),
          );
        expect(outbox().some((mail) => mail.includes(person))).toBe(true);

        const { page, problems } = await signedInPage(
          chromium,
          origin,
          test.store,
          // docs/workspace-privacy.md, « Personnes et RGPD »: erasing is for admins.
          { email: `rgpd-${run}@agence.fr`, name: 'Camille Martin', role: 'admin' },
          { width, javaScript, acceptDownloads: true },
        );

        // On a phone, « Personnes » is in the navigation's « Menu » (docs/workspace.md).
        if (width < 768) await page.getByText('Menu', { exact: true }).click();
        await page.getByRole('link', { name: 'Personnes' }).click();
        await page.waitForURL(`${origin}/equipe/personnes`);
        await check(page, width, javaScript);
        await page.getByLabel(/^Adresse e-mail de la personne/).fill(person);
        await page.getByRole('button', { name: 'Voir ce qui est gardé' }).click();
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(person);
        // The address travels in form bodies only, never in an address bar or a log line.
        expect(page.url()).toBe(`${origin}/equipe/personnes`);
        await check(page, width, javaScript);

        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Télécharger (JSON)' }).click(),
        ]);
        const saved = JSON.parse(readFileSync((await download.path())!, 'utf8'));
        expect(saved.address).toBe(person);
        expect(saved.leads).toHaveLength(1);

        await page.getByRole('button', { name: 'Effacer…' }).click();
        await expect
          .poll(() => page.getByRole('heading', { level: 1 }).textContent())
          .toContain('Effacer');
        await check(page, width, javaScript);
        await page.getByLabel(/Ajouter aussi l’adresse à la liste d’opposition/).check();
        // The admin's password, in the POST that erases (docs/workspace-security.md, «
        // Re-authentication »).
        await page.getByLabel(/^Votre mot de passe, ou un code/).fill(BROWSER_PASSWORD);
        await page.getByRole('button', { name: 'Effacer définitivement' }).click();
        await expect
          .poll(() => page.getByRole('heading', { level: 1 }).textContent())
          .toBe('Personne effacée');
        await check(page, width, javaScript);
        expect((await test.store.people.show(person)).leads).toHaveLength(0);
        expect(outbox().some((mail) => mail.includes(person))).toBe(false);
        expect(await test.store.optOut.find(person)).toBeDefined();

        for (const [path, title] of [
          ['/equipe/personnes/registre', 'Registre des demandes RGPD'],
          ['/equipe/personnes/opposition', 'Liste d’opposition'],
        ]) {
          await page.goto(`${origin}${path}`);
          expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
          await check(page, width, javaScript);
        }
        expect(problems).toEqual([]);
      }, 240_000);
    }
  }
});
