/**
 * The sample case studies' screenshots (site/content/realisations/images/): the home page of each
 * sample client's site, drawn here as plain HTML and photographed by Debian's Chromium at a real
 * size (1,366 × 854 and 390 × 844). An agency replaces them with screenshots of its clients' sites.
 * Run: node --import tsx scripts/case-screenshots.ts
 */
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const OUT = join(import.meta.dirname, '../site/content/realisations/images');

interface Client {
  file: string;
  name: string;
  color: string;
  soft: string;
  title: string;
  lead: string;
  button: string;
  phone: string;
  blocks: [string, string][];
  badge: string;
}

const CLIENTS: Client[] = [
  {
    file: 'ferrand',
    name: 'Cabinet Ferrand Avocats',
    color: '#3b2f63',
    soft: '#f1eff8',
    title: 'Avocats en droit de la famille à Lyon',
    lead: 'Divorce, garde d’enfants, pension alimentaire : un premier rendez-vous de 45 minutes pour comprendre vos droits, 90 € TTC.',
    button: 'Prendre un premier rendez-vous',
    phone: '04 78 62 19 40',
    blocks: [
      ['Divorce', 'Amiable ou contentieux, nous vous expliquons chaque étape et son calendrier.'],
      ['Garde d’enfants', 'Résidence, droit de visite, modification d’un jugement existant.'],
      ['Pension alimentaire', 'Fixer, réviser ou recouvrer une pension, avec des chiffres clairs.'],
    ],
    badge: 'Barreau de Lyon · Maître Anne Ferrand',
  },
  {
    file: 'velo',
    name: 'Atelier Vélo Croix-Rousse',
    color: '#0f6b4f',
    soft: '#ecf6f1',
    title: 'Réparation et révision de vélos, Lyon 4e',
    lead: 'Révision complète en 48 heures, crevaison réparée pendant que vous attendez. Ouvert du mardi au samedi, 9 h 30 – 19 h.',
    button: 'Réserver une réparation',
    phone: '04 72 07 33 18',
    blocks: [
      ['Révision', 'À partir de 59 € : freins, transmission, roues, serrage, essai.'],
      ['Crevaison', '15 € chambre à air comprise, en vingt minutes sans rendez-vous.'],
      ['Vélos électriques', 'Diagnostic batterie et moteur Bosch, Shimano, Yamaha.'],
    ],
    badge: '4,8/5 · 140 avis Google',
  },
  {
    file: 'durand',
    name: 'Durand Rénovation',
    color: '#9a3412',
    soft: '#fbf1ea',
    title: 'Rénovation de salles de bains et de cuisines à Villeurbanne',
    lead: 'Artisan RGE Qualibat, assurance décennale. Devis détaillé sous une semaine, chantiers à moins de 20 km de Villeurbanne.',
    button: 'Demander un devis',
    phone: '04 78 85 41 27',
    blocks: [
      ['Salles de bains', 'Douche à l’italienne, accessibilité, plomberie et carrelage.'],
      ['Cuisines', 'Dépose, réseaux, pose des meubles et du plan de travail.'],
      ['Isolation', 'Combles et murs, éligible aux aides à la rénovation énergétique.'],
    ],
    badge: 'RGE Qualibat · Décennale',
  },
];

function page(client: Client): string {
  const blocks = client.blocks
    .map(([title, text]) => `<div class="block"><h2>${title}</h2><p>${text}</p></div>`)
    .join('');
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><style>
body{margin:0;font:17px/1.6 system-ui,sans-serif;color:#1f2937;background:#fff}
header{display:flex;justify-content:space-between;align-items:center;padding:18px 5vw;border-bottom:1px solid #e5e7eb}
.brand{font-weight:700;font-size:20px;color:${client.color}}
nav a{margin-left:24px;color:#374151;text-decoration:none}
.hero{background:${client.soft};padding:56px 5vw}
h1{font-size:clamp(28px,4vw,44px);line-height:1.15;margin:0 0 16px;color:#111827;max-width:760px}
.lead{font-size:19px;max-width:680px;color:#4b5563}
.button{display:inline-block;background:${client.color};color:#fff;padding:14px 24px;border-radius:6px;font-weight:700;margin:12px 16px 0 0}
.phone{color:${client.color};font-weight:700}
.badge{margin-top:24px;font-size:15px;color:#4b5563}
.blocks{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:20px;padding:40px 5vw}
.block{border:1px solid #e5e7eb;border-radius:8px;padding:20px}
.block h2{margin:0 0 8px;font-size:20px;color:${client.color}}
@media (max-width:600px){nav{display:none}.hero{padding:32px 20px}header{padding:14px 20px}.blocks{padding:24px 20px}}
</style></head><body><header><span class="brand">${client.name}</span><nav><a href="#">Services</a><a href="#">Réalisations</a><a href="#">Contact</a></nav></header>
<section class="hero"><h1>${client.title}</h1><p class="lead">${client.lead}</p><a class="button" href="#">${client.button}</a><span class="phone">${client.phone}</span><p class="badge">${client.badge}</p></section>
<section class="blocks">${blocks}</section></body></html>`;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
for (const client of CLIENTS) {
  for (const [suffix, width, height] of [
    ['accueil', 1366, 854],
    ['mobile', 390, 844],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height } });
    const tab = await context.newPage();
    await tab.setContent(page(client));
    await tab.screenshot({ path: join(OUT, `${client.file}-${suffix}.png`) });
    await context.close();
  }
}
await browser.close();
