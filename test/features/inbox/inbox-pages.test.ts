import { describe, expect, it } from 'vitest';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validAudit, validContact } from '../../helpers/app.ts';
import { holdAsSpam } from '../../helpers/test-stores.ts';
import { activeMember, postForm, signIn } from '../staff/staff-session.ts';

/**
 * docs/workspace.md, "La boîte de réception", "La fiche d'un prospect", "À vérifier": the pages,
 * through app.inject.
 */
describe('the inbox, a lead page and « À vérifier » (docs/workspace.md)', () => {
  const t = useTestApp();

  async function member() {
    await activeMember(t.app, t.store, 'anne@agence.fr', 'member');
    return signIn(t.app, 'anne@agence.fr');
  }

  it('lists leads with their labels, finds one by search, and changes its status, assignee and notes', async () => {
    expect((await postJson(t.app, '/api/contact', validContact)).statusCode).toBe(200);
    expect((await postJson(t.app, '/api/audit', validAudit)).statusCode).toBe(200);
    const { cookie } = await member();
    const inbox = await t.app.inject({ url: '/equipe', headers: { cookie } });
    expect(inbox.statusCode).toBe(200);
    // docs/workspace.md, « La boîte de réception »: the home view, with the navigation's counts.
    expect(inbox.body).toContain('<caption>À traiter : 2 prospects</caption>');
    expect(inbox.body).toMatch(/À traiter <span class="nav-count">2<\/span>/);
    expect(inbox.body).toContain('Marie Dupont');
    expect(inbox.body).toContain('Artisans et entreprises du BTP');
    expect(inbox.body).toContain('non lu');

    const found = await t.app.inject({ url: '/equipe?q=dupont', headers: { cookie } });
    expect(found.body).toContain('<caption>À traiter : 1 prospect</caption>');
    const id = /href="\/equipe\/prospects\/([^"]+)"/.exec(found.body)![1]!;

    const page = await t.app.inject({ url: `/equipe/prospects/${id}`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    // Labels from the schemas, never the API key.
    expect(page.body).toContain('<dt>Prénom</dt><dd>Marie</dd>');
    expect(page.body).not.toContain('<dt>PRENOM</dt>');
    // The pillars ticked, as a person writes a list (the API keeps « Attirer,Convertir »).
    expect(page.body).toContain('<dd>Attirer, Convertir</dd>');
    expect(page.body).toContain('href="mailto:marie.dupont@example.fr"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
    const accounts = await t.store.staff.accounts();
    const anne = accounts.find((account) => account.email === 'anne@agence.fr')!;

    const saved = await postForm(
      t.app,
      `/equipe/prospects/${id}/suivi`,
      { _csrf: csrf, statut: 'en-cours', attribue: anne.id },
      cookie,
    );
    expect(saved.statusCode).toBe(303);
    await postForm(
      t.app,
      `/equipe/prospects/${id}/note`,
      { _csrf: csrf, note: 'Rappeler jeudi' },
      cookie,
    );
    const after = await t.app.inject({ url: `/equipe/prospects/${id}`, headers: { cookie } });
    expect(after.body).toContain('statut Nouveau → En cours');
    expect(after.body).toContain('note « Rappeler jeudi »');
    expect((await t.store.work.find(id))?.work).toMatchObject({
      status: 'en-cours',
      assignee: anne.id,
    });

    // « En cours » says the work began, not that the person heard back: the lead stays in
    // « À traiter » until its first answer (docs/workspace.md, « La promesse des 24 heures
    // ouvrées »); a call recorded ends it, and it stays in « Tous les prospects ».
    const started = await t.app.inject({ url: '/equipe', headers: { cookie } });
    expect(started.body).toContain('<caption>À traiter : 2 prospects</caption>');
    const called = await postForm(
      t.app,
      `/equipe/prospects/${id}/appel`,
      { _csrf: csrf, note: 'Rappelée : rendez-vous jeudi.' },
      cookie,
    );
    expect(called.statusCode).toBe(303);
    const home = await t.app.inject({ url: '/equipe', headers: { cookie } });
    expect(home.body).toContain('<caption>À traiter : 1 prospect</caption>');
    expect(home.body).not.toContain('Marie Dupont');
    const all = await t.app.inject({ url: '/equipe?vue=tous', headers: { cookie } });
    expect(all.body).toContain('<caption>Tous les prospects : 2 prospects</caption>');
    const filtered = await t.app.inject({
      url: '/equipe?vue=tous&statut=en-cours',
      headers: { cookie },
    });
    expect(filtered.body).toContain('<caption>Tous les prospects : 1 prospect</caption>');
    expect(filtered.body).toContain('Marie Dupont');
    // The active filter as a chip whose link removes it.
    expect(filtered.body).toContain(
      'href="/equipe?vue=tous" aria-label="Retirer le filtre Statut : En cours"',
    );
  });

  it('exports the current filter in the French-Excel flavour (BOM, semicolons)', async () => {
    await postJson(t.app, '/api/contact', { ...validContact, DEMANDE: 'ligne 1\nligne 2' });
    const { cookie } = await member();
    const csv = await t.app.inject({
      url: '/equipe/export.csv?format=excel&type=contact',
      headers: { cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('attachment');
    expect(csv.body.startsWith('\uFEFF')).toBe(true);
    expect(csv.body.split('\r\n')[0]).toContain(';');
    // The quoting of a bare LF inside a value is the shared CSV function's (spec of `leads export`).
    expect(csv.body).toContain('Marie');
  });

  it('« Ce n’est pas du spam » releases a held lead for delivery, once', async () => {
    const lead = {
      kind: 'contact',
      id: 'held-lead-1',
      receivedAt: new Date(),
      data: { ...validContact, PRENOM: 'Julie' },
    } as Lead;
    await holdAsSpam(t.store, lead);
    const { cookie, csrf } = await member();
    const held = await t.app.inject({ url: '/equipe/a-verifier', headers: { cookie } });
    expect(held.body).toContain('Julie Dupont');
    expect((await t.app.inject({ url: '/equipe', headers: { cookie } })).body).not.toContain(
      'Julie',
    );
    const released = await postForm(
      t.app,
      '/equipe/a-verifier/held-lead-1/liberer',
      { _csrf: csrf },
      cookie,
    );
    expect(released.statusCode).toBe(303);
    await postForm(t.app, '/equipe/a-verifier/held-lead-1/liberer', { _csrf: csrf }, cookie);
    const steps = await t.store.deliveries.steps('held-lead-1');
    expect(steps.length).toBeGreaterThan(0);
    expect(new Set(steps.map((step) => step.destination)).size).toBe(steps.length);
    expect(
      (await t.app.inject({ url: '/equipe/a-verifier', headers: { cookie } })).body,
    ).not.toContain('Julie');
  });
});
