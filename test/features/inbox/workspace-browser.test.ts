import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { inviteStaff } from '../../../src/features/staff/invitations.ts';
import { validContact } from '../../helpers/app.ts';
import { axeViolations } from '../../helpers/browser-axe.ts';
import { useSiteInChromium } from '../../helpers/browser-site.ts';
import { watchProblems } from '../../helpers/browser.ts';
import { asObjects, parseCsv } from '../../helpers/csv.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { holdAsSpam } from '../../helpers/test-stores.ts';

const PASSWORD = 'le café du matin est prêt';

/** A message with what a CSV must quote: the French separator, a line break, quotes. */
const message = (word: string) =>
  `Bonjour ; nous sommes dans le ${word}.\nDeuxième ligne, "entre guillemets".`;

/** One word per run, so each run's search and export find its own leads only. */
const RUNS = [
  { width: 390, javaScript: true, word: 'Aubrac' },
  { width: 390, javaScript: false, word: 'Cantal' },
  { width: 1366, javaScript: true, word: 'Vercors' },
  { width: 1366, javaScript: false, word: 'Morvan' },
];

/**
 * docs/workspace.md, the whole day of a member of the team in Debian's Chromium, on a phone (390 px)
 * and a laptop (1,366 px), with JavaScript on and off: invite → set the password → sign in → find a
 * lead by search → open it → status, assignee, note → « Relancer » a dead delivery step → release a
 * lead from « À vérifier » → export the filtered list for Excel → sign out. The pages carry no
 * script, so both runs post native forms; axe runs where scripts run. E-mails go through SMTP to a
 * real server on loopback, which counts what it received.
 */
/**
 * axe reads a page's HTML and styles, which the journal does not change: the `postgres` project
 * runs the day's work for what the journal does (docs/quality.md, « How the suite runs ») and
 * leaves axe, on each step and on every registered page, to the `sqlite` one.
 */
const AXE_CHECKED = defaultTestDialect === 'sqlite';

describe('the workspace in Chromium (docs/workspace.md)', () => {
  let sink: SmtpSink;
  /** docs/delivery.md: a 451 for the agency's address while true (one attempt, then `dead`). */
  let agencyMailboxDown = false;
  beforeAll(async () => {
    sink = await startSmtpSink({
      recipientCode: (address) =>
        agencyMailboxDown && address === chromium.served.test.config.mail.agencyEmail
          ? 451
          : undefined,
    });
  });
  afterAll(async () => {
    await sink.close();
  });
  const chromium = useSiteInChromium(() => ({
    MAIL_PROVIDER: 'smtp',
    SMTP_URL: sink.url,
    DELIVERY: 'queued',
    DELIVERY_MAX_ATTEMPTS: '1',
  }));
  // As `leadgate serve` does: the loop delivers the leads, and what « Ce n’est pas du spam » releases.
  beforeAll(() => chromium.served.test.app.dispatcher.start());

  /** axe on the page (JavaScript on only), and no page wider than the screen. */
  async function check(page: Page, width: number, javaScript: boolean) {
    // A page reached by a form's submit may be parsed before its stylesheet has loaded: measured
    // then, it is laid out without CSS (a loaded machine showed a 673 px table at 390 px).
    await page.waitForLoadState('load');
    if (javaScript && AXE_CHECKED) expect(await axeViolations(page), page.url()).toEqual([]);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `${page.url()} is wider than the screen`).toBeLessThanOrEqual(width);
  }

  /** The agency's notifications about this person (their Reply-To), as the SMTP server got them. */
  const notificationsAbout = (email: string) =>
    sink.received.filter(
      (mail) =>
        mail.envelopeTo.includes(chromium.served.test.config.mail.agencyEmail) &&
        mail.email.replyTo?.some((to) => to.address === email),
    ).length;

  async function postContact(person: { first: string; last: string; email: string }, word: string) {
    const response = await fetch(`${chromium.served.origin}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...validContact,
        PRENOM: person.first,
        NOM: person.last,
        EMAIL: person.email,
        DEMANDE: message(word),
      }),
    });
    expect(response.status).toBe(200);
  }

  for (const { width, javaScript, word } of RUNS) {
    it(`a day's work at ${width} px, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const { origin, test } = chromium.served;
      const tag = word.toLowerCase();
      const email = `admin-${tag}@agence.fr`;
      const staffName = `Camille ${word}`;
      const searched = { first: 'Hélène', last: `Durand${word}`, email: `helene@${tag}.fr` };
      const unreached = { first: 'Marc', last: 'Petit', email: `marc@${tag}.fr` };
      const held = { id: `held-${tag}`, first: 'Julie', last: 'Robot', email: `julie@${tag}.fr` };

      await postContact(searched, word);
      agencyMailboxDown = true;
      await postContact(unreached, word);
      const stepsOf = async (address: string) => {
        const [entry] = (await test.store.work.page({ search: address, limit: 1 })).entries;
        return test.store.deliveries.steps(entry!.lead.id);
      };
      await expect
        .poll(async () => (await stepsOf(unreached.email)).map((step) => step.status).sort())
        .toEqual(['dead', 'done']);
      agencyMailboxDown = false;
      await holdAsSpam(test.store, {
        kind: 'contact',
        id: held.id,
        receivedAt: new Date(),
        data: {
          ...validContact,
          PRENOM: held.first,
          NOM: held.last,
          EMAIL: held.email,
          DEMANDE: message(word),
        },
      } as Lead);
      expect(notificationsAbout(unreached.email)).toBe(0);

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
      const page = await context.newPage();
      const problems = watchProblems(page, (_url, status) => status === 401);
      const main = () => page.locator('main').innerText();

      // The invitation: a name and a password, then the sign-in page.
      await page.goto(link);
      await check(page, width, javaScript);
      await page.getByLabel('Votre nom').fill(staffName);
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
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('À traiter');
      await check(page, width, javaScript);

      // Find the lead by a part of its surname, open it.
      await page.getByLabel(/^Rechercher/).fill(`durand${tag.slice(0, 4)}`);
      await page.getByRole('button', { name: 'Filtrer' }).click();
      await expect.poll(() => page.locator('caption').textContent()).toBe('À traiter : 1 prospect');
      await check(page, width, javaScript);
      await page.getByRole('link', { name: `${searched.first} ${searched.last}` }).click();
      await page.waitForURL(/\/equipe\/prospects\/[^/]+$/);
      const leadPath = new URL(page.url()).pathname;
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        `${searched.first} ${searched.last}`,
      );
      await check(page, width, javaScript);

      // Status and assignee, then a note: both in the lead's history.
      await page.getByLabel('Statut').selectOption({ label: 'En cours' });
      await page.getByLabel('Attribué à').selectOption({ label: staffName });
      await page.getByRole('button', { name: 'Enregistrer' }).click();
      await expect.poll(main).toContain('statut Nouveau → En cours');
      expect(await main()).toContain(`attribution personne → ${staffName}`);
      await page.getByLabel('Note interne').fill('Rappeler jeudi matin');
      await page.getByRole('button', { name: 'Ajouter la note' }).click();
      await expect.poll(main).toContain('note « Rappeler jeudi matin »');
      await check(page, width, javaScript);

      // The lead whose notification was given up: « Relancer » delivers it, once.
      await page.goto(`${origin}/equipe?q=petit+${tag}`);
      await page.getByRole('link', { name: `${unreached.first} ${unreached.last}` }).click();
      await page.waitForURL(/\/equipe\/prospects\/[^/]+$/);
      const steps = page.getByRole('list', { name: 'Étapes de livraison' });
      expect(await steps.innerText()).toContain('Abandonnée');
      await check(page, width, javaScript);
      await steps.getByRole('button', { name: 'Relancer' }).click();
      await expect.poll(() => steps.getByRole('button', { name: 'Relancer' }).count()).toBe(0);
      expect(await steps.innerText()).not.toContain('Abandonnée');
      expect(notificationsAbout(unreached.email)).toBe(1);

      // « À vérifier »: the held lead, released; the dispatcher delivers it, once.
      await page.getByRole('link', { name: /^À vérifier/ }).click();
      await page.waitForURL(`${origin}/equipe/a-verifier`);
      await check(page, width, javaScript);
      const heldRow = page.getByRole('row', { name: new RegExp(`${held.first} ${held.last}`) });
      await heldRow.getByRole('button', { name: 'Ce n’est pas du spam' }).click();
      await page.waitForURL(`${origin}/equipe/prospects/${held.id}`);
      await expect
        .poll(async () => (await test.store.deliveries.steps(held.id)).map((step) => step.status))
        .toEqual(['done', 'done']);
      expect(notificationsAbout(held.email)).toBe(1);
      expect(sink.received.filter((mail) => mail.envelopeTo.includes(held.email))).toHaveLength(1);

      // The run's three leads, filtered by the word their messages share, for Excel.
      await page.goto(`${origin}/equipe?vue=tous&q=${tag}`);
      await expect
        .poll(() => page.locator('caption').textContent())
        .toBe('Tous les prospects : 3 prospects');
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: 'CSV pour Excel' }).click();
      const text = readFileSync((await (await download).path())!, 'utf8');
      expect(text.startsWith('\uFEFF')).toBe(true);
      const records = asObjects(parseCsv(text.slice(1), ';'));
      expect(records.map((record) => record['Adresse e-mail']).sort()).toEqual(
        [held.email, searched.email, unreached.email].sort(),
      );
      expect(records.every((record) => record.Projet?.includes('\nDeuxième ligne'))).toBe(true);

      // axe on every GET page the workspace registers (the routes the security and Nu tests walk
      // too), so a page added later is checked: a lead's pages on this run's lead, any other
      // parameter answered by the not-found page. Files (the CSV, the stylesheet) are not pages.
      if (javaScript && width === 390 && AXE_CHECKED) {
        for (const route of test.app.workspaceRoutes.filter((route) => route.method === 'GET')) {
          if (/\.\w+$/.test(route.url)) continue;
          const url = route.url
            .replace('/equipe/prospects/:id', leadPath)
            .replace(/:[A-Za-z]+/g, 'x0');
          await page.goto(`${origin}${url}`);
          await check(page, width, javaScript);
        }
      }

      // The admin's other pages; the export and the sign-in are in the trail.
      for (const [path, title] of [
        ['/equipe/tableau-de-bord', 'Tableau de bord'],
        ['/equipe/equipe', 'Équipe'],
        ['/equipe/compte', 'Mon compte'],
        ['/equipe/journal', 'Journal d’activité'],
      ]) {
        await page.goto(`${origin}${path}`);
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
        await check(page, width, javaScript);
      }
      expect(await page.locator('table').innerText()).toContain(email);

      // On a phone, « Se déconnecter » is in the navigation's « Menu » (docs/workspace.md).
      if (width < 768) await page.getByText('Menu', { exact: true }).click();
      await page.getByRole('button', { name: 'Se déconnecter' }).click();
      await page.waitForURL(`${origin}/equipe/connexion?au_revoir`);
      await page.goto(`${origin}/equipe/journal`);
      await page.waitForURL(`${origin}/equipe/connexion?suite=/equipe/journal`);
      expect(problems).toEqual([]);
    }, 240_000);
  }
});
