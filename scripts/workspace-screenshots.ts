/**
 * `npm run screenshots:workspace`: the workspace's pages (docs/workspace.md), whole, at 390 px (a
 * phone, drawn first) and 1,366 px,
 * into docs/screenshots/equipe-*.png, so a reviewer sees them without running the server. Sample
 * leads and accounts, no real person: the leads come in through the API, one is held by the bot
 * trap and one has its notification given up, then an admin signs in through the pages.
 */
import { join } from 'node:path';
import type { Lead } from '../src/kernel/lead/lead.ts';
import { inviteStaff } from '../src/features/staff/invitations.ts';
import { launchChromium } from '../test/helpers/browser.ts';
import { serveBuiltSite } from '../test/helpers/browser-site.ts';
import { acceptLead, holdAsSpam, NOTIFICATION_STEP } from '../test/helpers/test-stores.ts';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const LAPTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const ADMIN = { email: 'camille@agence-repere.fr', name: 'Camille Martin' };
const PASSWORD = 'une phrase de passe pour les captures';

const SAMPLE_LEADS: [string, Record<string, unknown>][] = [
  [
    '/api/contact',
    {
      PRENOM: 'Hélène',
      NOM: 'Garnier',
      EMAIL: 'helene.garnier@example.fr',
      JOB_TITLE: 'Avocate associée',
      TYPE_BESOIN: 'Attirer',
      SERVICE: 'Référencement local',
      DEMANDE: 'Notre cabinet ouvre à Lyon en janvier : comment être trouvés dans le quartier ?',
    },
  ],
  [
    '/api/audit',
    {
      email: 'thomas.roux@example.fr',
      firstName: 'Thomas',
      lastName: 'Roux',
      sector: 'btp',
      formData: { 'Combien de chantiers par an ?': 'Une trentaine' },
    },
  ],
  ['/api/subscribe', { email: 'ines.morel@example.fr', firstName: 'Inès' }],
  [
    '/api/contact',
    {
      PRENOM: 'Louis',
      NOM: 'Fabre',
      EMAIL: 'louis.fabre@example.fr',
      JOB_TITLE: 'Gérant',
      TYPE_BESOIN: 'Convertir',
      SERVICE: 'Site sur mesure',
      DEMANDE: 'Notre boutique en ligne est lente sur téléphone.',
    },
  ],
];

const served = await serveBuiltSite();
const browser = await launchChromium();
try {
  const { origin, test } = served;
  for (const [path, body] of SAMPLE_LEADS) {
    const response = await fetch(`${origin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  }
  // A notification given up after its attempts (« Relancer » on its page).
  const unreached: Lead = {
    kind: 'contact',
    id: 'lead-exemple-abandonne',
    receivedAt: new Date(),
    data: { PRENOM: 'Chloé', NOM: 'Perrin', EMAIL: 'chloe.perrin@example.fr', DEMANDE: 'Devis' },
  };
  await acceptLead(test.store, unreached);
  const now = new Date();
  const claimed = await test.store.deliveries.claim({
    targets: [NOTIFICATION_STEP],
    now,
    leaseUntil: new Date(now.getTime() + 60_000),
    limit: 1,
    leadId: unreached.id,
  });
  for (const step of claimed) {
    await test.store.deliveries.settle(
      step,
      { status: 'dead', error: 'UpstreamError: 451 boîte pleine' },
      now,
    );
  }
  await holdAsSpam(
    test.store,
    {
      kind: 'contact',
      id: 'lead-exemple-retenu',
      receivedAt: new Date(),
      data: {
        PRENOM: 'Jules',
        NOM: 'Lambert',
        EMAIL: 'jules.lambert@example.fr',
        DEMANDE: 'Bonjour',
      },
    } as Lead,
    'too_fast',
  );

  const { link } = await inviteStaff(test.store, {
    email: ADMIN.email,
    role: 'admin',
    siteUrl: origin,
    now: new Date(),
    invitedBy: null,
  });
  await inviteStaff(test.store, {
    email: 'hugo@agence-repere.fr',
    role: 'member',
    siteUrl: origin,
    now: new Date(),
    invitedBy: null,
  });
  const context = await browser.newContext({ viewport: LAPTOP, locale: 'fr-FR' });
  const page = await context.newPage();
  const shoot = (name: string, on = page) =>
    on.screenshot({
      path: join(OUT, `equipe-${name}-${on.viewportSize()!.width}.png`),
      fullPage: true,
    });

  await page.goto(link);
  await shoot('invitation');
  await page.getByLabel('Votre nom').fill(ADMIN.name);
  await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
  await page.getByLabel(/^Le même mot de passe/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Enregistrer mon mot de passe' }).click();
  await page.waitForURL(/\/equipe\/connexion/);
  await page.getByLabel(/^Adresse e-mail/).fill(ADMIN.email);
  await shoot('connexion');
  await page.getByLabel(/^Mot de passe/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await page.waitForURL(`${origin}/equipe`);

  // One lead being worked on: status, assignee and a note, through its page.
  await page.getByRole('link', { name: 'Hélène Garnier' }).click();
  await page.getByLabel('Statut').selectOption({ label: 'En cours' });
  await page.getByLabel('Attribué à').selectOption({ label: ADMIN.name });
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await page.getByLabel('Note interne').fill('Rappelée le matin : rendez-vous jeudi.');
  await page.getByRole('button', { name: 'Ajouter la note' }).click();
  await page.getByText('Rendez-vous jeudi', { exact: false }).waitFor();
  await shoot('prospect');
  const workedOn = new URL(page.url()).pathname;

  const pages = [
    ['prospect', workedOn],
    ['prospects', '/equipe'],
    ['recherche', '/equipe?q=garnier'],
    ['prospect-relancer', `/equipe/prospects/${unreached.id}`],
    ['a-verifier', '/equipe/a-verifier'],
    ['tableau-de-bord', '/equipe/tableau-de-bord'],
    ['equipe', '/equipe/equipe'],
    ['journal', '/equipe/journal'],
    ['compte', '/equipe/compte'],
  ] as const;
  for (const [name, path] of pages.slice(1)) {
    await page.goto(`${origin}${path}`);
    await shoot(name);
  }
  // The same session on a phone.
  const phone = await browser.newContext({
    viewport: PHONE,
    locale: 'fr-FR',
    storageState: await context.storageState(),
  });
  const phonePage = await phone.newPage();
  for (const [name, path] of pages) {
    await phonePage.goto(`${origin}${path}`);
    await shoot(name, phonePage);
  }
  await phone.close();
  await context.close();
  process.stdout.write(`workspace screenshots in ${OUT}\n`);
} finally {
  await browser.close();
  await served.close();
}
