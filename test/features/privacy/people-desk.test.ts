import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPT_OUT_REFUSAL } from '../../../src/features/newsletter/opt-out.ts';
import { answerDeadline } from '../../../src/features/privacy/request-deadline.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validContact } from '../../helpers/app.ts';
import { activeMember, FAST_SCRYPT, PASSWORD, postForm, signIn } from '../staff/staff-session.ts';

/*
 * docs/workspace-privacy.md, « Personnes et RGPD »: a person found by address, downloaded and
 * erased with the domain code of `people show` and `people forget`; the register of RGPD requests
 * and its one-month deadline; the opt-out list and what it does to delivery. On both journals.
 */
const PERSON = 'marie.dupont@example.fr';
const DAY = 86_400_000;

describe('the people and RGPD desk (docs/workspace-privacy.md)', () => {
  const t = useTestApp({ passwordCost: FAST_SCRYPT });
  let session: { cookie: string; csrf: string } | undefined;

  async function staff() {
    if (!session) {
      await activeMember(t.app, t.store, 'anne@agence.fr', 'member');
      session = await signIn(t.app, 'anne@agence.fr');
    }
    return session;
  }

  /**
   * docs/workspace-privacy.md, « Personnes et RGPD »: erasing and lifting an opt-out are for
   * admins.
   */
  let adminSession: { cookie: string; csrf: string } | undefined;
  async function admin() {
    if (!adminSession) {
      await activeMember(t.app, t.store, 'patron@agence.fr', 'admin');
      adminSession = await signIn(t.app, 'patron@agence.fr');
    }
    return adminSession;
  }

  /** The outbox's files (docs/delivery.md): what the agency's provider still keeps. */
  const outbox = () => {
    const directory = join(t.dataDir, 'outbox');
    return readdirSync(directory).map((name) => readFileSync(join(directory, name), 'utf8'));
  };

  async function leadOf(address: string, DEMANDE = validContact.DEMANDE) {
    const answer = await postJson(t.app, '/api/contact', {
      ...validContact,
      EMAIL: address,
      DEMANDE,
    });
    expect(answer.statusCode).toBe(200);
    const [entry] = (await t.store.people.show(address)).leads.slice(-1);
    return entry!.lead.id;
  }

  it('refuses every desk page without a session, and a POST without the session’s token or from another site', async () => {
    for (const url of [
      '/equipe/personnes',
      '/equipe/personnes/registre',
      '/equipe/personnes/opposition',
      '/equipe/prospects/x/personne',
    ]) {
      const answer = await t.app.inject({ url });
      expect(answer.statusCode, url).toBe(303);
      expect(answer.headers.location, url).toMatch(/^\/equipe\/connexion/);
    }
    await leadOf(PERSON);
    const download = await postForm(t.app, '/equipe/personnes/telecharger', { email: PERSON });
    expect(download.statusCode).toBe(303);
    expect(download.body).not.toContain(PERSON);

    const { cookie, csrf } = await staff();
    const erase = { email: PERSON, _csrf: csrf };
    const noToken = await postForm(
      t.app,
      '/equipe/personnes/effacement/confirmer',
      { email: PERSON },
      cookie,
    );
    expect(noToken.statusCode).toBe(403);
    const crossSite = await postForm(
      t.app,
      '/equipe/personnes/effacement/confirmer',
      erase,
      cookie,
      {
        origin: 'https://ailleurs.example',
        'sec-fetch-site': 'cross-site',
      },
    );
    expect(crossSite.statusCode).toBe(403);
    const listed = await postForm(
      t.app,
      '/equipe/personnes/opposition',
      { email: PERSON, action: 'ajouter' },
      cookie,
    );
    expect(listed.statusCode).toBe(403);
    expect((await t.store.people.show(PERSON)).leads.length).toBeGreaterThan(0);
    expect(await t.store.optOut.find(PERSON)).toBeUndefined();
  });

  it('shows a person from the lead page, downloads it as JSON, and erases it after a confirmation naming what goes', async () => {
    const address = 'jeanne.martin@example.fr';
    const id = await leadOf(address);
    expect(
      (await postJson(t.app, '/api/privacy', { kind: 'access', email: address })).statusCode,
    ).toBe(200);
    expect(outbox().some((mail) => mail.includes(address))).toBe(true);
    const { cookie, csrf } = await staff();

    const lead = await t.app.inject({ url: `/equipe/prospects/${id}`, headers: { cookie } });
    expect(lead.body).toContain(`href="/equipe/prospects/${id}/personne"`);
    const person = await t.app.inject({
      url: `/equipe/prospects/${id}/personne`,
      headers: { cookie },
    });
    expect(person.statusCode).toBe(200);
    expect(person.body).toContain('<caption>Ses demandes : 1</caption>');
    expect(person.body).toContain('Accès (art. 15)');

    const download = await postForm(
      t.app,
      '/equipe/personnes/telecharger',
      { email: address, _csrf: csrf },
      cookie,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="personne-/);
    const file = download.json();
    expect(file.address).toBe(address);
    expect(file.leads).toHaveLength(1);
    expect(file.related.privacy_requests).toHaveLength(1);

    // A member's session erases nobody, whatever page the POST claims to come from.
    for (const path of ['/equipe/personnes/effacement', '/equipe/personnes/effacement/confirmer']) {
      const refused = await postForm(
        t.app,
        path,
        { email: address, _csrf: csrf, preuve: PASSWORD },
        cookie,
      );
      expect(refused.statusCode, path).toBe(403);
    }
    expect((await t.store.people.show(address)).leads).toHaveLength(1);
    const boss = await admin();
    const confirm = await postForm(
      t.app,
      '/equipe/personnes/effacement',
      { email: address, _csrf: boss.csrf },
      boss.cookie,
    );
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('name="preuve"');
    expect(confirm.body).toMatch(/Contact du \d\d\/\d\d\/\d{4}/);
    expect(confirm.body).toContain('Étapes de livraison');
    expect(confirm.body).toContain('name="opposition"');
    // The confirmation page changed nothing.
    expect((await t.store.people.show(address)).leads).toHaveLength(1);

    // The admin's own password, in the POST that erases: a stolen session alone erases nobody.
    for (const preuve of ['', 'pas le bon mot de passe']) {
      const unproved = await postForm(
        t.app,
        '/equipe/personnes/effacement/confirmer',
        { email: address, opposition: '1', _csrf: boss.csrf, preuve },
        boss.cookie,
      );
      expect(unproved.statusCode).toBe(403);
      expect(unproved.body).toContain('ne correspond pas à votre compte');
    }
    expect((await t.store.people.show(address)).leads).toHaveLength(1);
    const erased = await postForm(
      t.app,
      '/equipe/personnes/effacement/confirmer',
      { email: address, opposition: '1', _csrf: boss.csrf, preuve: PASSWORD },
      boss.cookie,
    );
    expect(erased.statusCode).toBe(200);
    expect(erased.body).toContain('1 demande(s) effacée(s)');
    const after = await t.store.people.show(address);
    expect(after.leads).toHaveLength(0);
    expect(after.related).toEqual({});
    expect(outbox().some((mail) => mail.includes(address))).toBe(false);
    const [request] = await t.store.privacyRequests.list();
    expect(request).toMatchObject({ address: null, reference: after.reference });
    expect(await t.store.optOut.find(address)).toBeDefined();

    const trail = await t.store.staff.auditTrail({ limit: 20 });
    const actions = trail
      .filter((line) => line.target === `person:${after.reference}`)
      .map((line) => line.action);
    expect(actions).toEqual(
      expect.arrayContaining(['view-person', 'download-person', 'opt-out-add', 'erase']),
    );
    expect(JSON.stringify(trail)).not.toContain(address);
  });

  it('keeps the register with the one-month deadline and flags the overdue requests', async () => {
    expect(answerDeadline(new Date('2027-01-31T10:00:00Z'))).toBe('2027-02-28');
    expect(answerDeadline(new Date('2028-01-31T10:00:00Z'))).toBe('2028-02-29');
    expect(answerDeadline(new Date('2026-12-15T10:00:00Z'))).toBe('2027-01-15');
    // 23:30 UTC on 31 March is 1 April in Paris: the month runs from the day received there.
    expect(answerDeadline(new Date('2027-03-31T23:30:00Z'))).toBe('2027-05-01');

    const { cookie, csrf } = await staff();
    const day = (ms: number) => new Date(Date.now() - ms).toISOString().slice(0, 10);
    const late = await postForm(
      t.app,
      '/equipe/personnes/registre',
      {
        _csrf: csrf,
        recue: day(40 * DAY),
        canal: 'letter',
        type: 'rectification',
        email: 'paul.durand@example.fr',
        verification: 'Copie d’une pièce d’identité',
      },
      cookie,
    );
    expect(late.statusCode).toBe(303);
    await postForm(
      t.app,
      '/equipe/personnes/registre',
      { _csrf: csrf, recue: day(0), canal: 'phone', type: 'objection', email: 'lea@example.fr' },
      cookie,
    );
    const register = await t.app.inject({ url: '/equipe/personnes/registre', headers: { cookie } });
    expect(register.body).toContain('dont <strong class="overdue">1 en retard</strong>');
    expect(register.body).toContain('Rectification (art. 16)');
    expect(register.body).toContain('Copie d’une pièce d’identité');
    expect(register.body).toContain('anne');

    const answered = await postForm(
      t.app,
      late.headers.location as string,
      { _csrf: csrf, verification: 'Pièce vérifiée', suite: 'Nom corrigé', repondue: day(0) },
      cookie,
    );
    expect(answered.statusCode).toBe(303);
    const after = await t.app.inject({ url: '/equipe/personnes/registre', headers: { cookie } });
    expect(after.body).not.toContain('en retard');
    expect(after.body).toContain('Nom corrigé');
    const trail = await t.store.staff.auditTrail({ limit: 50 });
    expect(trail.map((line) => line.action)).toEqual(
      expect.arrayContaining(['privacy-request-add', 'privacy-request-update']),
    );

    const refused = await postForm(
      t.app,
      '/equipe/personnes/registre',
      { _csrf: csrf, recue: day(-3 * DAY), canal: 'email', type: 'access', email: 'x@example.fr' },
      cookie,
    );
    expect(refused.statusCode).toBe(422);
  });

  it('an address on the opt-out list: its new lead is journaled and flagged, none of its steps is sent', async () => {
    const address = 'opposant@example.fr';
    const { cookie, csrf } = await staff();
    const added = await postForm(
      t.app,
      '/equipe/personnes/opposition',
      { _csrf: csrf, email: 'Opposant@Example.fr', motif: 'opposition', action: 'ajouter' },
      cookie,
    );
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain('Adresse ajoutée');
    expect(added.body).not.toContain(address);
    const before = outbox().length;

    // The person sees the answer anyone gets: nothing tells a caller the address objected.
    const id = await leadOf(address);
    const steps = await t.store.deliveries.steps(id);
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) {
      expect(step.status).toBe('refused');
      expect(step.lastError).toContain(OPT_OUT_REFUSAL);
    }
    expect(outbox().length).toBe(before);

    const inbox = await t.app.inject({ url: '/equipe', headers: { cookie } });
    expect(inbox.body).toMatch(
      new RegExp(`href="/equipe/prospects/${id}"[^]*?<span class="badge">opposition</span>`),
    );
    const lead = await t.app.inject({ url: `/equipe/prospects/${id}`, headers: { cookie } });
    expect(lead.body).toContain('Adresse dans la liste d’opposition');

    const checked = await postForm(
      t.app,
      '/equipe/personnes/opposition',
      { _csrf: csrf, email: address, action: 'verifier' },
      cookie,
    );
    expect(checked.body).toContain('Cette adresse est dans la liste depuis le');

    // Taken off the list, the address is delivered again.
    const reference = await t.store.people.reference(address);
    expect((await t.store.optOut.list(10)).map((entry) => entry.reference)).toContain(reference);
    const byMember = await postForm(
      t.app,
      '/equipe/personnes/opposition/retirer',
      { _csrf: csrf, reference },
      cookie,
    );
    expect(byMember.statusCode).toBe(403);
    expect(await t.store.optOut.find(address)).toBeDefined();
    const boss = await admin();
    const removed = await postForm(
      t.app,
      '/equipe/personnes/opposition/retirer',
      { _csrf: boss.csrf, reference },
      boss.cookie,
    );
    expect(removed.statusCode).toBe(303);
    const next = await leadOf(address, 'Finalement, rappelez-moi.');
    expect((await t.store.deliveries.steps(next)).every((step) => step.status === 'done')).toBe(
      true,
    );
    expect(outbox().length).toBeGreaterThan(before);
  });
});
