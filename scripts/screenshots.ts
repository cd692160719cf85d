/**
 * `npm run screenshots`: every page of the built site, above the fold, at 390 px (phone) and
 * 1,366 px (laptop), into docs/screenshots/, so a reviewer sees the site without running it.
 * Debian's Chromium with the tests' flags; the site and API served on a free loopback port.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from '../test/helpers/browser.ts';
import { serveBuiltSite } from '../test/helpers/browser-site.ts';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const WIDTHS = [
  { width: 390, height: 844 },
  { width: 1366, height: 768 },
];

const fileName = (path: string) => (path === '/' ? 'accueil' : path.slice(1).replaceAll('/', '-'));

const served = await serveBuiltSite();
const browser = await launchChromium();
try {
  // The e-mails' and the workspace's screenshots (npm run screenshots:mail, screenshots:workspace) stay.
  mkdirSync(OUT, { recursive: true });
  for (const file of readdirSync(OUT)) {
    if (!/^(e-mail|equipe)-/.test(file)) rmSync(join(OUT, file), { recursive: true, force: true });
  }
  for (const viewport of WIDTHS) {
    const context = await browser.newContext({ viewport, locale: 'fr-FR' });
    const page = await context.newPage();
    for (const { path } of served.manifest.pages) {
      await page.goto(served.origin + path);
      await page.screenshot({ path: join(OUT, `${fileName(path)}-${viewport.width}.png`) });
    }
    await context.close();
  }
  process.stdout.write(`${served.manifest.pages.length * WIDTHS.length} screenshots in ${OUT}\n`);
} finally {
  await browser.close();
  await served.close();
}
