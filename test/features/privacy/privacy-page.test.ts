import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postForm, postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';
import { buildTestSite, type TestSite } from '../../helpers/site.ts';

/*
 * docs/consent.md, "Requests about one's data": /vos-donnees is the site's page with the request's
 * form, working without JavaScript like the lead forms (303 to its thank-you page, its page back
 * with a message by a refused field); the unsubscribe page opened without a valid link offers the
 * same request instead of a new subscription. Plain HTTP here; test/quality/privacy-browser.test.ts
 * drives the page in Chromium.
 */
let site: TestSite;
let t: TestApp;
beforeAll(async () => {
  site = await buildTestSite();
});
afterAll(() => site.remove());
afterEach(async () => {
  await t?.close();
});

const PERSON = 'camille.martin@example.fr';
const BROWSER = { accept: 'text/html,application/xhtml+xml' };

/** The links of the outbox's e-mails of one role, by their path, as a mail client shows them. */
async function linksIn(role: string, path: string): Promise<string[]> {
  const directory = join(t.dataDir, 'outbox');
  const names = readdirSync(directory).filter((name) => name.endsWith(`-${role}.eml`));
  const mails = await Promise.all(
    names.sort().map((name) => PostalMime.parse(readFileSync(join(directory, name)))),
  );
  return mails.map((mail) => new RegExp(`${path}\\?jeton=[\\w.-]+`).exec(mail.text!)![0]);
}

const privacyLinks = () => linksIn('privacy-link', '/vos-donnees/confirmation');

/** What the page says, without the site's navigation and footer. */
const mainOf = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

describe('/vos-donnees', () => {
  it('is a page of the site with its form, its Markdown twin, in the footer and the privacy notice', async () => {
    t = await buildTestApp({ siteDir: site.dir });
    const page = await t.app.inject({ url: '/vos-donnees' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<form class="lead-form" method="post" action="\/api\/privacy"/);
    expect(page.body).toMatch(/<select id="donnees-kind" name="kind" required/);
    expect(page.body).toContain('toolname="request_privacy_action"');
    expect(page.body).toContain('data-thank-you="/vos-donnees/merci"');

    const markdown = await t.app.inject({ url: '/vos-donnees.md' });
    expect(markdown.statusCode).toBe(200);
    expect(markdown.body).toContain('POST /api/privacy');
    expect(markdown.body).toContain('`request_privacy_action`');
    // The example body it shows is accepted as is.
    const example = /```json\n([\s\S]*?)\n```/.exec(markdown.body)![1]!;
    expect((await postJson(t.app, '/api/privacy', example)).json()).toEqual({
      success: true,
      confirmation: 'sent',
    });

    for (const path of ['/', '/politique-de-confidentialite']) {
      expect((await t.app.inject({ url: path })).body, path).toContain('href="/vos-donnees"');
    }
  });

  it('without JavaScript: the form post lands on /vos-donnees/merci and e-mails the link, whose page is in the site’s layout', async () => {
    t = await buildTestApp({ siteDir: site.dir });
    const sent = await postForm(
      t.app,
      '/api/privacy',
      [
        ['kind', 'erasure'],
        ['email', PERSON],
        ['message', ''],
      ],
      BROWSER,
    );
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe('/vos-donnees/merci');
    const thanks = await t.app.inject({ url: '/vos-donnees/merci' });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('<meta name="robots" content="noindex">');
    expect(thanks.body).toMatch(/lien de confirmation/);

    const [entry] = await t.store.privacyRequests.list();
    expect(entry).toMatchObject({ kind: 'erasure', channel: 'form', status: 'pending' });
    const [link] = await privacyLinks();
    const shown = await t.app.inject({ url: link! });
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('<header class="site-header">');
    expect(shown.body).toMatch(/Confirmez l’effacement de vos données/);
    expect(shown.body).toContain(`action="${link!.replaceAll('&', '&amp;')}"`);
  });

  it('without JavaScript: a refused post comes back as the page, the address kept and the field named', async () => {
    t = await buildTestApp({ siteDir: site.dir });
    const refused = await postForm(
      t.app,
      '/api/privacy',
      [
        ['kind', 'access'],
        ['email', 'camille.martin@'],
      ],
      BROWSER,
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.body).toContain('value="camille.martin@"');
    expect(refused.body).toMatch(/aria-invalid="true"/);
    expect(refused.body).toMatch(/nom@domaine\.fr/);
    expect(await t.store.privacyRequests.list()).toEqual([]);
  });
});

describe('/newsletter/desinscription without a valid link', () => {
  for (const [what, query, status] of [
    ['no link', '', 200],
    ['a tampered link', '?jeton=abc.def', 400],
  ] as const) {
    it(`${what}: ${status}, how to unsubscribe and the request form, no new sign-up`, async () => {
      t = await buildTestApp({ siteDir: site.dir });
      const page = await t.app.inject({ url: `/newsletter/desinscription${query}` });
      expect(page.statusCode).toBe(status);
      expect(page.body).toMatch(/lien de désinscription propre à votre adresse/);
      expect(page.body).toMatch(/<form class="lead-form" method="post" action="\/api\/privacy"/);
      expect(page.body).toContain('<input type="hidden" name="kind" value="unsubscribe">');
      expect(page.body).toContain('href="/vos-donnees"');
      // Nothing to sell either: no call to action under the title.
      expect(mainOf(page.body)).not.toMatch(/inscrivez-vous|href="\/newsletter"|class="cta"/);
      expect(page.headers['x-robots-tag']).toBe('noindex');
    });
  }

  it('its form unsubscribes the address once the e-mailed link is confirmed', async () => {
    t = await buildTestApp({ siteDir: site.dir });
    await postJson(t.app, '/api/subscribe', { email: PERSON, firstName: 'Camille' });
    const [confirm] = await linksIn('optin', '/newsletter/confirmation');
    await t.app.inject({ method: 'POST', url: confirm! });
    expect(await t.store.newsletter.isSubscribed(PERSON)).toBe(true);
    const sent = await postForm(
      t.app,
      '/api/privacy',
      [
        ['kind', 'unsubscribe'],
        ['email', PERSON],
      ],
      BROWSER,
    );
    expect(sent.headers.location).toBe('/vos-donnees/merci');
    expect(await t.store.newsletter.isSubscribed(PERSON)).toBe(true);
    const [link] = await privacyLinks();
    const done = await t.app.inject({ method: 'POST', url: link! });
    expect(done.body).toMatch(/Votre désinscription est enregistrée/);
    expect(await t.store.newsletter.isSubscribed(PERSON)).toBe(false);
  });

  it('a server without a built site points to /vos-donnees', async () => {
    t = await buildTestApp();
    const page = await t.app.inject({ url: '/newsletter/desinscription' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<a href="/vos-donnees">');
  });
});
