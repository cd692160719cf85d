import type { BrowserContext, BrowserContextOptions } from 'playwright-core';
import { inviteStaff } from '../../src/features/staff/invitations.ts';
import type { StaffRole } from '../../src/features/staff/staff.ts';
import type { Store } from '../../src/kernel/journal/store.ts';
import { watchProblems } from './browser.ts';

export const BROWSER_PASSWORD = 'le café du matin est prêt';

/**
 * docs/workspace-security.md, "Signing in the first time", in Chromium: a member is invited,
 * follows the link, chooses a name and a password, signs in and lands on the inbox. axe is loaded
 * where scripts run; `problems` collects the page's console errors and failed requests.
 */
export async function signedInPage(
  browser: { newContext(options?: BrowserContextOptions): Promise<BrowserContext> },
  origin: string,
  store: Store,
  member: { email: string; name: string; role: StaffRole },
  options: BrowserContextOptions & { width: number; javaScript: boolean },
) {
  const { width, javaScript, ...contextOptions } = options;
  const { link } = await inviteStaff(store, {
    email: member.email,
    role: member.role,
    siteUrl: origin,
    now: new Date(),
    invitedBy: null,
  });
  const context = await browser.newContext({
    viewport: { width, height: 800 },
    javaScriptEnabled: javaScript,
    ...contextOptions,
  });
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(link);
  await page.getByLabel('Votre nom').fill(member.name);
  await page.getByLabel(/^Mot de passe/).fill(BROWSER_PASSWORD);
  await page.getByLabel(/^Le même mot de passe/).fill(BROWSER_PASSWORD);
  await page.getByRole('button', { name: 'Enregistrer mon mot de passe' }).click();
  await page.waitForURL(`${origin}/equipe/connexion?bienvenue`);
  await page.getByLabel(/^Adresse e-mail/).fill(member.email);
  await page.getByLabel(/^Mot de passe/).fill(BROWSER_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL(`${origin}/equipe`);
  return { page, problems };
}
