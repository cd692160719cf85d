/**
 * `npm run screenshots:mail`: each e-mail of `leadgate mail preview` (the sample identity) rendered
 * by Chromium, whole, at 390 px (phone) and 1,366 px (laptop), into docs/screenshots/e-mail-*.png
 * (docs/emails.md). The HTML is loaded as a page with JavaScript off and no network, as a mail
 * client shows it.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { mailIdentity } from '../src/features/site/mail-identity.ts';
import { mailPreviews, PREVIEWS } from '../src/cli/mail-previews.ts';
import { launchChromium } from '../test/helpers/browser.ts';

const OUT = join(import.meta.dirname, '..', 'docs', 'screenshots');
const WIDTHS = [390, 1366];
const SETTINGS = {
  from: 'Repère <bonjour@agence-repere.fr>',
  agencyEmail: 'equipe@agence-repere.fr',
  siteUrl: 'https://www.agence-repere.fr',
  identity: mailIdentity(),
};

const previews = new Map(
  PREVIEWS.flatMap((name) => mailPreviews(name, SETTINGS)).map((mail) => [mail.name, mail]),
);
const browser = await launchChromium();
try {
  mkdirSync(OUT, { recursive: true });
  for (const width of WIDTHS) {
    const context = await browser.newContext({
      viewport: { width, height: 800 },
      locale: 'fr-FR',
      javaScriptEnabled: false,
      offline: true,
    });
    const page = await context.newPage();
    for (const preview of previews.values()) {
      await page.setContent(preview.message.html);
      await page.screenshot({
        path: join(OUT, `e-mail-${preview.name}-${width}.png`),
        fullPage: true,
      });
    }
    await context.close();
  }
  process.stdout.write(`${previews.size * WIDTHS.length} screenshots in ${OUT}\n`);
} finally {
  await browser.close();
}
