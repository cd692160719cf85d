import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { parseBusinessHours } from '../../../src/features/inbox/business-hours.ts';
import { teamSummaryEmail } from '../../../src/features/inbox/team-summary-email.ts';
import { inviteStaff } from '../../../src/features/staff/invitations.ts';
import { teamSummaryFacts } from '../../../src/features/inbox/team-summary-facts.ts';
import { totpCode, totpStep } from '../../../src/features/staff/totp.ts';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validContact } from '../../helpers/app.ts';
import {
  activeMember,
  ORIGIN,
  PASSWORD,
  postForm,
  signIn,
  signInSetup,
} from '../staff/staff-session.ts';

/*
 * docs/workspace-security.md: the workspace's smaller rules. Invitations spent, the second factor
 * and recovery codes changed only with a proof, form values among what the page offered, a reply
 * link that carries one address, values meant to be one line shown on one line, search terms out of
 * the logs, no CORS header.
 */
const { clock, lines, options: signInOptions } = signInSetup();

describe('the workspace’s integrity rules (docs/workspace-security.md)', () => {
  const t = useTestApp(signInOptions);
  let admin: { cookie: string; csrf: string } | undefined;
  const signedInAdmin = async () => {
    if (!admin) {
      await activeMember(t.app, t.store, 'patronne@agence.fr', 'admin', clock.now);
      admin = await signIn(t.app, 'patronne@agence.fr');
    }
    return admin;
  };
  const leadWith = async (fields: Record<string, string>) => {
    expect((await postJson(t.app, '/api/contact', { ...validContact, ...fields })).statusCode).toBe(
      200,
    );
    const entry = (await t.store.list()).find(
      (candidate) => (candidate.lead.data as Record<string, unknown>).EMAIL === fields.EMAIL,
    );
    return entry!.lead.id;
  };
  const invite = async (email: string) =>
    new URL(
      (
        await inviteStaff(t.store, {
          email,
          role: 'member',
          siteUrl: ORIGIN,
          now: clock.now,
          invitedBy: null,
        })
      ).link,
    ).searchParams.get('jeton')!;
  const linkWorks = async (token: string) =>
    (await t.app.inject({ url: `/equipe/invitation?jeton=${token}` })).statusCode === 200;

  it('a new invitation, or one used, spends the account’s others; disabling spends them too', async () => {
    const first = await invite('oubli@agence.fr');
    const second = await invite('oubli@agence.fr');
    expect(await linkWorks(first)).toBe(false);
    expect(await linkWorks(second)).toBe(true);
    const set = { jeton: second, password: PASSWORD, confirmation: PASSWORD };
    expect((await postForm(t.app, '/equipe/invitation', set)).statusCode).toBe(303);
    expect((await postForm(t.app, '/equipe/invitation', { ...set, jeton: first })).statusCode).toBe(
      410,
    );

    const { cookie, csrf } = await signedInAdmin();
    const account = (await t.store.staff.accountByEmail('oubli@agence.fr'))!;
    const pending = await invite('oubli@agence.fr');
    const action = (name: string) =>
      postForm(t.app, `/equipe/equipe/${account.id}/${name}`, { _csrf: csrf }, cookie);
    expect((await action('desactiver')).statusCode).toBe(303);
    expect((await action('reactiver')).statusCode).toBe(303);
    expect(await linkWorks(pending)).toBe(false);
    expect(
      (await postForm(t.app, '/equipe/invitation', { ...set, jeton: pending })).statusCode,
    ).toBe(410);
  });

  it('replacing the second factor or the recovery codes asks the current password or a code', async () => {
    await activeMember(t.app, t.store, 'totp2@agence.fr', 'member', clock.now);
    const session = await signIn(t.app, 'totp2@agence.fr');
    const secretOn = async () =>
      /name="secret" value="([A-Z2-7]{32})"/.exec(
        (await t.app.inject({ url: '/equipe/compte', headers: { cookie: session.cookie } })).body,
      )?.[1];
    const enrol = (secret: string, extra: Record<string, string> = {}) =>
      postForm(
        t.app,
        '/equipe/compte/double-authentification',
        { _csrf: session.csrf, secret, code: totpCode(secret, totpStep(clock.now)), ...extra },
        session.cookie,
      );
    const secret = (await secretOn())!;
    expect((await enrol(secret)).statusCode).toBe(200);
    // A second secret, with only the session: refused, the first one stays.
    const other = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const replaced = await enrol(other);
    expect(replaced.statusCode).toBe(403);
    expect((await t.store.staff.accountByEmail('totp2@agence.fr'))!.totpSecret).toBe(secret);
    const renew = (preuve?: string) =>
      postForm(
        t.app,
        '/equipe/compte/codes-de-secours',
        { _csrf: session.csrf, ...(preuve !== undefined && { preuve }) },
        session.cookie,
      );
    expect((await renew()).statusCode).toBe(403);
    expect((await renew('pas le bon mot de passe')).statusCode).toBe(403);
    const renewed = await renew(PASSWORD);
    expect(renewed.statusCode).toBe(200);
    expect([...renewed.body.matchAll(/<li>([a-z0-9]{10})<\/li>/g)]).toHaveLength(10);
    clock.now = new Date(clock.now.getTime() + 30_000);
    const withCode = await enrol(other, { preuve: totpCode(secret, totpStep(clock.now)) });
    expect(withCode.statusCode).toBe(200);
    expect((await t.store.staff.accountByEmail('totp2@agence.fr'))!.totpSecret).toBe(other);
  });

  it('« Répondre » carries one address: the Bcc trick is encoded (RFC 6068)', async () => {
    const tricky = 'contact%40bigclient.fr?bcc=spy%40evil.example&x=@bigclient.fr';
    const answer = await postJson(t.app, '/api/contact', { ...validContact, EMAIL: tricky });
    expect(answer.statusCode).toBe(200);
    const entry = (await t.store.list()).find(
      (candidate) => (candidate.lead.data as Record<string, unknown>).EMAIL === tricky,
    );
    const { cookie } = await signedInAdmin();
    const page = await t.app.inject({
      url: `/equipe/prospects/${entry!.lead.id}`,
      headers: { cookie },
    });
    const hrefs = [...page.body.matchAll(/href="(mailto:[^"]*)"/g)].map((match) => match[1]!);
    expect(hrefs).toEqual([
      'mailto:contact%2540bigclient.fr%3Fbcc%3Dspy%2540evil.example%26x%3D@bigclient.fr',
    ]);
    for (const href of hrefs) {
      const url = new URL(href.replaceAll('&amp;', '&'));
      expect(url.search).toBe('');
    }
    // The notification's link too.
    const outbox = join(t.dataDir, 'outbox');
    const file = readdirSync(outbox).find((name) => name.endsWith('-notification.eml'))!;
    const mail = await PostalMime.parse(readFileSync(join(outbox, file)));
    const mailHrefs = [...mail.html!.matchAll(/href="(mailto:[^"]*)"/g)].map((match) => match[1]);
    expect(mailHrefs).toEqual([hrefs[0]]);
  });

  it('keeps form values to what the page offered, redirects to same-origin paths, 404s unknown leads', async () => {
    const id = await leadWith({ EMAIL: 'integrite@example.fr' });
    const { cookie, csrf } = await signedInAdmin();
    const before = (await t.store.work.find(id))!;
    const unknownAssignee = await postForm(
      t.app,
      `/equipe/prospects/${id}/suivi`,
      { _csrf: csrf, statut: 'nouveau', attribue: 'compte-inexistant' },
      cookie,
    );
    expect(unknownAssignee.statusCode).toBe(400);
    expect((await t.store.work.find(id))!.work.assignee).toBe(before.work.assignee);
    const bulk = await postForm(
      t.app,
      '/equipe/prospects/actions',
      { _csrf: csrf, ids: id, action: 'attribuer:compte-inexistant', suite: '/equipe' },
      cookie,
    );
    expect(bulk.statusCode).toBe(400);
    expect((await t.store.work.find(id))!.work.assignee).toBe(before.work.assignee);

    const motif = await postForm(
      t.app,
      '/equipe/personnes/opposition',
      { _csrf: csrf, email: 'motif@example.fr', motif: 'toString', action: 'ajouter' },
      cookie,
    );
    expect(motif.statusCode).toBe(422);
    expect(await t.store.optOut.find('motif@example.fr')).toBeUndefined();

    for (const [suite, location] of [
      ['/equipe?statut=nouveau\r\nSet-Cookie: x=1', '/equipe?statut=nouveauSet-Cookie:%20x=1'],
      ['//evil.example/equipe', '/equipe'],
      ['/equipe.evil.example', '/equipe'],
      ['/\\evil.example', '/equipe'],
      ['/equipe?statut=en-cours', '/equipe?statut=en-cours'],
    ]) {
      const answer = await postForm(
        t.app,
        '/equipe/prospects/actions',
        { _csrf: csrf, ids: id, action: 'statut:nouveau', suite: suite! },
        cookie,
      );
      expect(answer.statusCode, suite).toBe(303);
      expect(answer.headers.location, suite).toBe(location);
    }

    const logged = lines.length;
    const replay = await postForm(
      t.app,
      '/equipe/prospects/inconnu/relancer',
      { _csrf: csrf, destination: 'x'.repeat(5000) },
      cookie,
    );
    expect(replay.statusCode).toBe(404);
    expect(lines.slice(logged).every((line) => line.length < 2000)).toBe(true);
    const trail = await t.store.staff.auditTrail({ limit: 10, action: 'replay' });
    expect(trail).toEqual([]);
    for (const path of ['suivi', 'note']) {
      const answer = await postForm(
        t.app,
        `/equipe/prospects/inconnu/${path}`,
        { _csrf: csrf, statut: 'nouveau', note: 'x' },
        cookie,
      );
      expect(answer.statusCode, path).toBe(404);
    }
  });

  it('masks inbox searches in the request log, and gives workspace answers no CORS header', async () => {
    const { cookie } = await signedInAdmin();
    const logged = lines.length;
    const search = await t.app.inject({
      url: '/equipe?q=Jean%20Dupont%20%2612345678',
      headers: { cookie },
    });
    expect(search.statusCode).toBe(200);
    const requestLines = lines.slice(logged).join('\n');
    expect(requestLines).toContain('q=[masqué]');
    expect(requestLines).not.toContain('Dupont');
    expect(requestLines).not.toContain('12345678');

    for (const answer of [
      search,
      await t.app.inject({ url: '/equipe/connexion', headers: { origin: 'https://evil.example' } }),
      await t.app.inject({
        method: 'OPTIONS',
        url: '/equipe/connexion',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
        },
      }),
    ]) {
      expect(
        Object.keys(answer.headers).filter((name) => name.startsWith('access-control-')),
      ).toEqual([]);
    }
    // The API keeps its own.
    const api = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/contact',
      headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' },
    });
    expect(api.headers['access-control-allow-origin']).toBe('*');
  });

  it('shows a value meant to be one line on one line: summary, notification, lead page', async () => {
    const phishing =
      'Site vitrine\n\nAlerte sécurité : votre session a expiré, reconnectez-vous : https://evil.example/equipe';
    const id = await leadWith({
      EMAIL: 'une.ligne@example.fr',
      PRENOM: 'Jeanne\r\nAlerte',
      SERVICE: phishing,
      DEMANDE: 'Première ligne.\nDeuxième ligne.',
    });
    const facts = await teamSummaryFacts(
      t.store,
      clock.now,
      parseBusinessHours(t.config.workspace.businessHours),
      8 * 60,
    );
    const summary = teamSummaryEmail(facts, {
      from: t.config.mail.from,
      agencyEmail: t.config.mail.agencyEmail,
      siteUrl: t.config.siteUrl,
      identity: mailIdentity(),
    });
    // The person's name in bold on its line, each request on one line below it.
    const lines = summary.text.split('\n');
    expect(lines.find((text) => text.includes('Jeanne'))).toContain('Jeanne Alerte');
    expect(
      lines.some((text) => text.includes('Site vitrine Alerte sécurité : votre session a expiré')),
    ).toBe(true);
    expect(summary.text).not.toMatch(/\n\s*Alerte sécurité/);
    expect(summary.html).not.toMatch(/<br>\s*(<br>\s*)?Alerte sécurité/);

    const outbox = join(t.dataDir, 'outbox');
    const files = readdirSync(outbox).filter((name) => name.endsWith('-notification.eml'));
    const mails = await Promise.all(
      files.map((file) => PostalMime.parse(readFileSync(join(outbox, file)))),
    );
    const notification = mails.find((mail) => mail.text?.includes('une.ligne@example.fr'))!;
    expect(notification.text).toContain('Site vitrine Alerte sécurité');
    expect(notification.text).not.toMatch(/\n\s*Alerte sécurité/);
    // A message keeps its lines.
    expect(notification.text).toMatch(/Première ligne\.\n\s*Deuxième ligne\./);

    const { cookie } = await signedInAdmin();
    const page = await t.app.inject({ url: `/equipe/prospects/${id}`, headers: { cookie } });
    expect(page.body).toMatch(/<h1[^>]*>Jeanne Alerte/);
    expect(page.body).toContain('Site vitrine Alerte sécurité');
  });
});
