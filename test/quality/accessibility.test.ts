import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Response } from 'playwright-core';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import {
  NEWSLETTER_CONFIRM_PATH,
  NEWSLETTER_PAGES,
  NEWSLETTER_UNSUBSCRIBE_PATH,
  type NewsletterPageState,
} from '../../src/kernel/schemas/newsletter-pages.ts';
import {
  PRIVACY_CONFIRM_PATH,
  PRIVACY_PAGES,
  type PrivacyPageState,
} from '../../src/kernel/schemas/privacy-pages.ts';
import { hasChromium, watchProblems } from '../helpers/browser.ts';
import { axeViolations } from '../helpers/browser-axe.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

const NOT_FOUND = '/page-qui-n-existe-pas';

const chromium = useSiteInChromium();

async function newContext(width: number, height: number) {
  const context = await chromium.newContext({ viewport: { width, height }, locale: 'fr-FR' });
  return context;
}

/** axe on each path, plus what the browser reports as broken there (CSP, script errors, 4xx assets). */
async function audit(context: BrowserContext, paths: string[]) {
  const found: Record<string, string[]> = {};
  for (const path of paths) {
    const page = await context.newPage();
    const problems = watchProblems(page);
    const response = await page.goto(chromium.served.origin + path);
    expect(response?.status(), path).toBe(path === NOT_FOUND ? 404 : 200);
    const messages = [...(await axeViolations(page)), ...problems];
    if (messages.length) found[path] = messages;
    await page.close();
  }
  return found;
}

/**
 * The two links of a real double opt-in e-mail (docs/consent.md): a subscription sent to the served
 * app, its e-mail read from the outbox as a mail client would, the links pointed at the served origin.
 */
/** The link of `path` in the outbox's e-mail of `role` (one such e-mail), on the served origin. */
async function emailedLink(role: string, path: string): Promise<string> {
  const { origin, test } = chromium.served;
  const outbox = join(test.dataDir, 'outbox');
  const file = readdirSync(outbox).find((name) => name.endsWith(`-${role}.eml`));
  const text = (await PostalMime.parse(readFileSync(join(outbox, file ?? '(none)')))).text ?? '';
  const found = new RegExp(`${test.config.siteUrl}${path}\\?jeton=[\\w.-]+`).exec(text)?.[0];
  expect(found, path).toBeDefined();
  return origin + found!.slice(test.config.siteUrl.length);
}

async function post(path: string, body: object) {
  const answer = await fetch(`${chromium.served.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

async function newsletterLinks(email: string): Promise<{ confirm: string; unsubscribe: string }> {
  await post('/api/subscribe', { email, firstName: 'Léa' });
  return {
    confirm: await emailedLink('optin', NEWSLETTER_CONFIRM_PATH),
    unsubscribe: await emailedLink('optin', NEWSLETTER_UNSUBSCRIBE_PATH),
  };
}

describe.skipIf(!hasChromium())('accessibility in Chromium (quality bar, docs/quality.md)', () => {
  it('axe-core reports 0 violations on every page and the 404, at phone width', async () => {
    // A phone first, as Lighthouse and most visitors see the site: reflow problems show up here.
    const paths = [...chromium.served.manifest.pages.map((page) => page.path), NOT_FOUND];
    expect(await audit(await newContext(390, 844), paths)).toEqual({});
    // ~25 s alone; axe on 25 pages shares two cores with three other files in a full run.
  }, 420_000);

  it('axe-core reports 0 violations at desktop width (one page per template: home, form, sector)', async () => {
    const paths = ['/', '/contact', '/secteurs/boutiques'];
    expect(await audit(await newContext(1280, 800), paths)).toEqual({});
  }, 60_000);

  it('no page scrolls sideways at 320 px (WCAG 1.4.10 reflow), the header included', async () => {
    // The header holds the brand and the one-line menu: on a narrow phone the menu must go under the
    // brand, not past the edge (the current page's button is the widest).
    const page = await (await newContext(320, 640)).newPage();
    const wide: Record<string, number> = {};
    for (const { path } of chromium.served.manifest.pages) {
      await page.goto(chromium.served.origin + path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 320) wide[path] = width;
    }
    expect(wide).toEqual({});
  }, 60_000);

  it('axe-core reports 0 violations on the pages a newsletter e-mail’s links open, each state', async () => {
    const { confirm, unsubscribe } = await newsletterLinks('lien-axe@exemple.fr');
    const page = await (await newContext(390, 844)).newPage();
    const problems = watchProblems(page);
    const found: Partial<Record<NewsletterPageState, string[]>> = {};
    const check = async (state: NewsletterPageState, response: Response | null) => {
      expect(response?.status(), state).toBe(NEWSLETTER_PAGES[state].status);
      // The site's typesetting puts no-break spaces in the title (before « : », for one).
      const title = (await page.locator('h1').textContent())?.replace(/\s/g, ' ');
      expect(title, state).toBe(NEWSLETTER_PAGES[state].title);
      const messages = await axeViolations(page);
      if (messages.length) found[state] = messages;
    };
    /** The page's button, as a person presses it: its form posts to the link's own address. */
    const press = async (label: string) => {
      const [response] = await Promise.all([
        page.waitForResponse((answer) => answer.request().method() === 'POST'),
        page.getByRole('button', { name: label }).click(),
      ]);
      await page.waitForLoadState();
      return response;
    };

    await check('confirm', await page.goto(confirm));
    await check('confirmed', await press(NEWSLETTER_PAGES.confirm.button!.label));
    await check('used', await page.goto(confirm));
    await check('unsubscribe', await page.goto(unsubscribe));
    await check('unsubscribed', await press(NEWSLETTER_PAGES.unsubscribe.button!.label));
    await check('invalid', await page.goto(`${confirm.split('?')[0]}?jeton=abimé`));
    // Without a valid link: how to unsubscribe and the request form (docs/consent.md).
    await check('unsubscribe-help', await page.goto(unsubscribe.split('?')[0]!));
    await check('unsubscribe-invalid', await page.goto(`${unsubscribe.split('?')[0]}?jeton=abimé`));
    expect(found).toEqual({});
    expect(problems).toEqual([]);
  }, 90_000);

  it('axe-core reports 0 violations on the pages a privacy request’s link opens, each state', async () => {
    await post('/api/privacy', { kind: 'erasure', email: 'donnees-axe@exemple.fr' });
    const link = await emailedLink('privacy-link', PRIVACY_CONFIRM_PATH);
    const page = await (await newContext(390, 844)).newPage();
    const problems = watchProblems(page);
    const found: Partial<Record<PrivacyPageState, string[]>> = {};
    const check = async (state: PrivacyPageState, response: Response | null) => {
      expect(response?.status(), state).toBe(PRIVACY_PAGES[state].status);
      const title = (await page.locator('h1').textContent())?.replace(/\s/g, ' ');
      expect(title, state).toBe(PRIVACY_PAGES[state].title.replace(/\s/g, ' '));
      const messages = await axeViolations(page);
      if (messages.length) found[state] = messages;
    };
    await check('confirm-erasure', await page.goto(link));
    const [done] = await Promise.all([
      page.waitForResponse((answer) => answer.request().method() === 'POST'),
      page.getByRole('button', { name: PRIVACY_PAGES['confirm-erasure'].button!.label }).click(),
    ]);
    await page.waitForLoadState();
    await check('done-erasure', done);
    await check('used', await page.goto(link));
    await check('invalid', await page.goto(`${link.split('?')[0]}?jeton=abimé`));
    expect(found).toEqual({});
    expect(problems).toEqual([]);
  }, 90_000);

  it('Tab reaches the skip link first, then every link and control, each with a visible focus', async () => {
    const page = await (await newContext(390, 844)).newPage();
    await page.goto(`${chromium.served.origin}/contact`);
    const stops: { text: string; visible: boolean }[] = [];
    for (let step = 0; step < 120; step++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const active = document.activeElement;
        if (!active || active === document.body) return null;
        const style = getComputedStyle(active);
        const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
        const text = `${active.tagName.toLowerCase()} ${(active.textContent ?? '').trim().slice(0, 40) || active.getAttribute('name')}`;
        return { text, visible: outline || style.boxShadow !== 'none' };
      });
      if (!stop || stop.text === stops[0]?.text) break; // back at the top: the walk is done
      stops.push(stop);
    }
    expect(stops[0]?.text).toBe('a Aller au contenu');
    expect(stops.length).toBeGreaterThan(20);
    expect(stops.at(-1)?.text).toMatch(/^a /); // the footer's last link: the walk went through
    expect(stops.filter((stop) => !stop.visible).map((stop) => stop.text)).toEqual([]);

    // The skip link moves the reading position to the main content.
    await page.goto(`${chromium.served.origin}/contact`);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.hash === '#contenu');
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => document.activeElement?.closest('main') !== null);
    expect(next).toBe(true);
  });
});
