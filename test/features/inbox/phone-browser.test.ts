import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { validAudit, validContact } from '../../helpers/app.ts';
import { axeViolations } from '../../helpers/browser-axe.ts';
import { useSiteInChromium } from '../../helpers/browser-site.ts';
import { acceptLead, holdAsSpam, NOTIFICATION_STEP } from '../../helpers/test-stores.ts';
import { activeMember, signIn } from '../staff/staff-session.ts';

const HOUR = 3_600_000;
const LEADS = 50;
/**
 * docs/workspace.md, « Sur un téléphone »: room left above the first record for the one-line
 * delivery banner (about 48 px) and a « N envois non livrés » line, which other pages may show.
 */
const BANNER_ROOM = 72;

const LONG_MESSAGE =
  'Bonjour, nous sommes une entreprise familiale de rénovation énergétique installée depuis trente ans entre Clermont-Ferrand et Aurillac, et nous voudrions que nos chantiers, nos avis clients et nos certifications apparaissent enfin quand quelqu’un cherche un artisan RGE près de chez lui. ';

/** The lead of index `i`: long names and messages, four hours apart, newest first. */
function leadOf(i: number, now: number): Lead {
  const receivedAt = new Date(now - (i * 4 + 0.5) * HOUR);
  const id = `phone-${String(i).padStart(2, '0')}`;
  if (i % 7 === 3) {
    return {
      kind: 'audit',
      id,
      receivedAt,
      data: {
        ...validAudit,
        email: `jean-baptiste.${i}@tres-longue-entreprise-de-renovation.fr`,
        firstName: 'Jean-Baptiste-Emmanuel',
        lastName: `Vasconcelos-Montalembert ${i}`,
        formData: { 'Combien de chantiers par an ?': LONG_MESSAGE.repeat(2) },
      },
    } as Lead;
  }
  return {
    kind: 'contact',
    id,
    receivedAt,
    data: {
      ...validContact,
      PRENOM: 'Marie-Alexandrine',
      NOM: `de La Tour d’Auvergne-Lauraguais ${i}`,
      EMAIL: `marie-alexandrine.${i}@cabinet-avocats-associes-clermont.fr`,
      SMS: '0612345678',
      SMS__COUNTRY_CODE: '+33',
      DEMANDE: LONG_MESSAGE.repeat(3),
    },
  } as Lead;
}

/** The first record of each page the team reads, as a CSS selector inside <main>. */
const FIRST_ROW = 'main tbody tr';

/**
 * docs/workspace.md, « Sur un téléphone »: with 50 leads whose names and messages are long, on a
 * phone (390 × 844) and a laptop (1,366 × 768), JavaScript on and off, every list and the lead page
 * show their first record whole in the first screen (with room for a banner line), never scroll
 * sideways, keep every control on screen, and pass axe.
 */
describe('the workspace on a phone and a laptop (docs/workspace.md)', () => {
  const chromium = useSiteInChromium();
  let cookie: { name: string; value: string };
  const oldest = `phone-${String(LEADS - 1).padStart(2, '0')}`;

  beforeAll(async () => {
    const { test } = chromium.served;
    const now = Date.now();
    for (let i = 0; i < LEADS; i += 1) {
      const lead = leadOf(i, now);
      await acceptLead(test.store, lead, [
        NOTIFICATION_STEP,
        { destination: 'confirmation-email', provider: 'outbox' },
      ]);
    }
    // The most overdue lead's notification was given up: « Relancer » is on its page.
    const [step] = await test.store.deliveries.claim({
      targets: [NOTIFICATION_STEP],
      now: new Date(),
      leaseUntil: new Date(Date.now() + 60_000),
      limit: 1,
      leadId: oldest,
    });
    await test.store.deliveries.settle(step!, { status: 'dead', error: 'SMTP 451' }, new Date());
    for (let i = 0; i < 3; i += 1) {
      await holdAsSpam(test.store, { ...leadOf(i, now), id: `held-${i}` }, 'too_fast');
    }
    await activeMember(test.app, test.store, 'camille@agence.fr', 'admin');
    const session = await signIn(test.app, 'camille@agence.fr');
    const [name, value] = session.cookie.split('=') as [string, string];
    cookie = { name, value };
  });

  async function openPage(width: number, height: number, javaScript: boolean): Promise<Page> {
    const context = await chromium.newContext({
      viewport: { width, height },
      javaScriptEnabled: javaScript,
    });
    await context.addCookies([{ ...cookie, url: chromium.served.origin }]);
    return context.newPage();
  }

  /** The first screen's promises on the page open in `page`. */
  async function checkFirstScreen(page: Page, selector: string, javaScript: boolean) {
    // Laid out with its stylesheet: a page reached by a form may be parsed before it has loaded.
    await page.waitForLoadState('load');
    const { width, height } = page.viewportSize()!;
    const where = `${page.url()} at ${width} px`;
    const box = await page.locator(selector).first().boundingBox();
    expect(box, where).not.toBeNull();
    expect(box!.y, where).toBeGreaterThanOrEqual(0);
    expect(
      box!.y + box!.height,
      `${where}: first record below the first screen`,
    ).toBeLessThanOrEqual(height - BANNER_ROOM);
    const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(scrollWidth, `${where}: wider than the screen`).toBeLessThanOrEqual(width);
    const offScreen = await page.evaluate((screen) => {
      const controls = document.querySelectorAll('main :is(a, button, select, input, textarea)');
      return Array.from(controls)
        .map((control) => ({ control, box: control.getBoundingClientRect() }))
        .filter(({ box }) => box.width > 0 && (box.left < 0 || box.right > screen))
        .map(({ control }) => control.outerHTML.slice(0, 80));
    }, width);
    expect(offScreen, where).toEqual([]);
    if (javaScript) expect(await axeViolations(page), where).toEqual([]);
  }

  const RUNS = [
    { width: 390, height: 844, javaScript: true },
    { width: 390, height: 844, javaScript: false },
    { width: 1366, height: 768, javaScript: true },
    { width: 1366, height: 768, javaScript: false },
  ];

  for (const { width, height, javaScript } of RUNS) {
    it(`the first record is in the first screen at ${width} × ${height}, JavaScript ${javaScript ? 'on' : 'off'}`, async () => {
      const { origin } = chromium.served;
      const page = await openPage(width, height, javaScript);
      const pages: [string, string][] = [
        ['/equipe', FIRST_ROW],
        ['/equipe?vue=tous', FIRST_ROW],
        ['/equipe/a-verifier', FIRST_ROW],
        [`/equipe/prospects/${oldest}`, '.lead-facts'],
        [`/equipe/prospects/${oldest}/personne`, FIRST_ROW],
        ['/equipe/personnes/registre', FIRST_ROW],
        ['/equipe/journal', FIRST_ROW],
      ];
      for (const [path, selector] of pages) {
        await page.goto(`${origin}${path}`);
        if (javaScript && process.env.LEADGATE_SCREENSHOTS) {
          const name = path.replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '') || 'equipe';
          await page.screenshot({
            path: `${process.env.LEADGATE_SCREENSHOTS}/${name}-${width}.png`,
          });
        }
        await checkFirstScreen(page, selector, javaScript);
      }
      // « À traiter »: the most overdue first, marked, and the navigation's counts.
      await page.goto(`${origin}/equipe`);
      const first = page.locator(FIRST_ROW).first();
      expect(await first.innerText()).toContain(`Lauraguais ${LEADS - 1}`);
      expect(await first.innerText()).toContain('En retard');
      const nav = page.getByRole('navigation', { name: 'Espace équipe' });
      expect(await nav.getByRole('link', { name: /^À traiter/ }).innerText()).toMatch(
        /^À traiter \d+$/,
      );
      expect(await nav.getByRole('link', { name: /^À vérifier/ }).innerText()).toBe('À vérifier 3');
    }, 240_000);
  }

  /**
   * docs/workspace.md, « Sur un téléphone »: the morning's work at 390 × 844, each step
   * reached in a counted number of taps (a tap: a click, or a choice in a list).
   */
  it('a morning at 390 px: each task in a counted number of taps', async () => {
    const { origin, test } = chromium.served;
    const page = await openPage(390, 844, false);
    let taps = 0;
    const tap = async (target: { click(): Promise<void> }) => {
      taps += 1;
      await target.click();
    };
    const counted = async (task: () => Promise<void>) => {
      taps = 0;
      await task();
      return taps;
    };
    await page.goto(`${origin}/equipe`);
    const counts: Record<string, number> = {};

    // The most overdue lead is the first card of « À traiter »: one tap opens it.
    counts.find = await counted(async () => {
      await tap(page.locator(FIRST_ROW).first().getByRole('link'));
      await page.waitForURL(`${origin}/equipe/prospects/${oldest}`);
    });
    // « Appeler » dials the number in E.164 (a tap hands it to the phone).
    const call = page.getByRole('link', { name: /^Appeler/ });
    expect(await call.getAttribute('href')).toMatch(/^tel:\+[1-9]\d{6,14}$/);
    counts.call = 1;
    counts.assign = await counted(async () => {
      taps += 1;
      await page.getByLabel('Attribué à').selectOption({ label: 'camille' });
      taps += 1;
      await page.getByLabel('Statut').selectOption({ label: 'En cours' });
      await tap(page.getByRole('button', { name: 'Enregistrer' }));
      await expect
        .poll(() => page.locator('main').innerText())
        .toContain('statut Nouveau → En cours');
    });
    counts.note = await counted(async () => {
      await tap(page.getByLabel('Note interne'));
      await page.getByLabel('Note interne').fill('Rappeler à 14 h');
      await tap(page.getByRole('button', { name: 'Ajouter la note' }));
      await expect
        .poll(() => page.locator('main').innerText())
        .toContain('note « Rappeler à 14 h »');
    });
    counts.replay = await counted(async () => {
      await tap(page.getByRole('button', { name: 'Relancer' }));
      await expect
        .poll(async () => (await test.store.deliveries.steps(oldest)).map((step) => step.status))
        .not.toContain('dead');
    });
    counts.release = await counted(async () => {
      await tap(page.getByRole('link', { name: /^À vérifier/ }));
      await tap(
        page.locator(FIRST_ROW).first().getByRole('button', { name: 'Ce n’est pas du spam' }),
      );
      await page.waitForURL(/\/equipe\/prospects\/held-/);
    });
    // The figures docs/workspace.md gives.
    expect(counts).toEqual({ find: 1, call: 1, assign: 3, note: 2, replay: 1, release: 2 });
  }, 120_000);
});
