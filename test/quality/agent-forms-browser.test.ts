import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { emailOf } from '../../src/kernel/lead/lead.ts';
import { HONEYPOT_FIELD } from '../../src/kernel/schemas/bot-trap.ts';
import { hasChromium, watchProblems } from '../helpers/browser.ts';
import { useSiteInChromium } from '../helpers/browser-site.ts';

/*
 * docs/consent.md, "Requests about one's data", and docs/agents.md, "WebMCP on the site's forms":
 * the request form of /vos-donnees and of the unsubscribe page without a link, with and without
 * JavaScript; the bot trap kept out of a form's WebMCP tool; a submit the browser says an agent made
 * recorded as channel `agent`.
 */
const chromium = useSiteInChromium();

async function open(path: string, javaScriptEnabled: boolean, status = 200) {
  const context = await chromium.newContext({ javaScriptEnabled, locale: 'fr-FR' });
  const page = await context.newPage();
  const problems = watchProblems(page, (url, code) => url.includes('/api/') && code === 400);
  expect((await page.goto(chromium.served.origin + path))?.status(), path).toBe(status);
  return { page, problems };
}

/** The register's requests for an address, and the links e-mailed to it. */
async function requestsFor(address: string) {
  const entries = await chromium.served.test.store.privacyRequests.list();
  return entries.filter((entry) => entry.address === address);
}

function linksSent(): number {
  const outbox = join(chromium.served.test.dataDir, 'outbox');
  if (!existsSync(outbox)) return 0;
  return readdirSync(outbox).filter((file) => file.endsWith('-privacy-link.eml')).length;
}

async function expectThanks(page: Page) {
  await page.waitForURL(`${chromium.served.origin}/vos-donnees/merci`, { timeout: 10_000 });
  await expect(page.locator('h1').textContent()).resolves.toMatch(/Demande reçue/);
}

describe.skipIf(!hasChromium())('the request about one’s data in Chromium', () => {
  for (const javaScript of [true, false]) {
    const mode = javaScript ? 'with JavaScript' : 'without JavaScript';
    it(`/vos-donnees ${mode}: the kind chosen, the address typed, sent, /vos-donnees/merci, a link e-mailed`, async () => {
      const { page, problems } = await open('/vos-donnees', javaScript);
      const address = `donnees-${javaScript ? 'js' : 'html'}@exemple.fr`;
      const form = page.locator('form[action="/api/privacy"]');
      const before = linksSent();
      await form.getByLabel('Votre demande').selectOption('erasure');
      await form.getByLabel('Adresse e-mail concernée').fill(address);
      await form.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await expectThanks(page);
      expect(await requestsFor(address)).toEqual([
        expect.objectContaining({ kind: 'erasure', channel: 'form', status: 'pending' }),
      ]);
      expect(linksSent()).toBe(before + 1);
      expect(problems).toEqual([]);
    });

    it(`/vos-donnees ${mode}: no kind chosen, the field says so and nothing is sent`, async () => {
      const { page, problems } = await open('/vos-donnees', javaScript);
      const address = `sans-choix-${javaScript ? 'js' : 'html'}@exemple.fr`;
      const form = page.locator('form[action="/api/privacy"]');
      await form.getByLabel('Adresse e-mail concernée').fill(address);
      if (!javaScript) {
        // The browser's own check would stop the post: what a browser without it sends.
        await form.evaluate((element: HTMLFormElement) => (element.noValidate = true));
      }
      await form.getByRole('button', { name: 'Envoyer ma demande' }).click();
      const message = page.locator('#donnees-kind-erreur');
      await expect(message.textContent()).resolves.toMatch(/Ce champ est obligatoire/);
      await expect(form.getByLabel('Votre demande').getAttribute('aria-invalid')).resolves.toBe(
        'true',
      );
      await expect(form.getByLabel('Adresse e-mail concernée').inputValue()).resolves.toBe(address);
      expect(await requestsFor(address)).toEqual([]);
      expect(problems).toEqual([]);
    });

    it(`/newsletter/desinscription without a link, ${mode}: the address sent as an unsubscribe request`, async () => {
      const { page, problems } = await open('/newsletter/desinscription', javaScript);
      const address = `desinscription-${javaScript ? 'js' : 'html'}@exemple.fr`;
      await expect(page.locator('h1').textContent()).resolves.toBe(
        'Se désinscrire de la newsletter',
      );
      const form = page.locator('form[action="/api/privacy"]');
      await form.getByLabel('Adresse e-mail concernée').fill(address);
      await form.getByRole('button', { name: 'Envoyer ma demande' }).click();
      await expectThanks(page);
      expect(await requestsFor(address)).toEqual([
        expect.objectContaining({ kind: 'unsubscribe', channel: 'form' }),
      ]);
      expect(problems).toEqual([]);
    });
  }
});

async function subscriptionOf(address: string) {
  const entries = await chromium.served.test.store.list();
  return entries.filter((entry) => emailOf(entry.lead) === address);
}

describe.skipIf(!hasChromium())('WebMCP on the site’s forms in Chromium (docs/agents.md)', () => {
  it('the bot trap is no named control once the script runs, and keeps its name without it', async () => {
    for (const javaScript of [true, false]) {
      const { page } = await open('/newsletter', javaScript);
      const names = await page
        .locator('form[action="/api/subscribe"]')
        .first()
        .evaluate((form: HTMLFormElement) =>
          Array.from(form.elements)
            .map((element) => (element as HTMLInputElement).name)
            .filter(Boolean),
        );
      expect(names.includes(HONEYPOT_FIELD), `JavaScript ${javaScript}`).toBe(!javaScript);
      expect(names).toContain('email');
    }
  });

  it('a submit the browser marks agentInvoked is recorded as channel agent; a person’s click as form', async () => {
    const { page, problems } = await open('/newsletter', true);
    const form = page.locator('form[action="/api/subscribe"]').first();
    const send = async (address: string, agentInvoked: boolean) => {
      await form.getByLabel('Prénom').fill('Camille');
      await form.getByLabel('Adresse e-mail').fill(address);
      await form.getByRole('checkbox').check();
      chromium.served.passFillTime();
      const answered = page.waitForResponse((response) =>
        response.url().endsWith('/api/subscribe'),
      );
      if (agentInvoked) {
        // WebMCP's declarative draft: SubmitEvent.agentInvoked, true when the agent submitted.
        await form.evaluate((element: HTMLFormElement) => {
          const event = new SubmitEvent('submit', { bubbles: true, cancelable: true });
          Object.defineProperty(event, 'agentInvoked', { value: true });
          element.dispatchEvent(event);
        });
      } else {
        await form.getByRole('button', { name: 'M’inscrire' }).click();
      }
      expect((await answered).status()).toBe(200);
      await page.waitForURL(`${chromium.served.origin}/newsletter/merci`, { timeout: 10_000 });
    };
    await send('agent-webmcp@exemple.fr', true);
    const [byAgent] = await subscriptionOf('agent-webmcp@exemple.fr');
    expect(byAgent?.lead.consent?.channel).toBe('agent');

    await page.goto(`${chromium.served.origin}/newsletter`);
    await send('personne-webmcp@exemple.fr', false);
    const [byPerson] = await subscriptionOf('personne-webmcp@exemple.fr');
    expect(byPerson?.lead.consent?.channel).toBe('form');
    expect(byPerson?.status).not.toBe('spam');
    expect(byAgent?.status).not.toBe('spam');
    expect(problems).toEqual([]);
  });
});
