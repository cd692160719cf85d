import { describe, expect, it } from 'vitest';
import { createBotTrap } from '../../../src/features/intake/forms/bot-trap.ts';
import { useTestApp } from '../../helpers/app.ts';
import { activeMember, FAST_SCRYPT, signIn } from '../staff/staff-session.ts';

/*
 * docs/workspace.md, « À vérifier », and docs/api-decisions.md, "Bot trap": a site form post the
 * trap catches waits in « À vérifier » with its reason in French; one that is only too fast (a
 * person's autofill) is never dropped, and nothing delivers it until someone releases it.
 */
describe('« À vérifier » says why each lead was held', () => {
  const t = useTestApp({ passwordCost: FAST_SCRYPT, env: { MAIL_PROVIDER: 'outbox' } });

  const formPost = (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/subscribe',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  it('lists a too-fast sign-up and a honeypot one, each with its reason', async () => {
    const trap = createBotTrap(await t.store.secret('form-token'), { minFillMs: 0 });
    // Sent the second its page was served (FORM_MIN_FILL_SECONDS is 3 by default).
    const fast = await formPost({
      email: 'rapide@example.fr',
      firstName: 'Rapide',
      form_token: trap.issue(Date.now()),
    });
    expect(fast.statusCode).toBeLessThan(400);
    await formPost({ email: 'robot@example.fr', firstName: 'Robot', website: 'https://x.example' });

    const held = await t.store.list({ statuses: ['spam'] });
    expect(held.map((entry) => entry.spamReason).sort()).toEqual(['honeypot', 'too_fast']);
    for (const entry of held) expect(await t.store.deliveries.steps(entry.lead.id)).toEqual([]);

    await activeMember(t.app, t.store, 'anne@agence.fr', 'member');
    const { cookie } = await signIn(t.app, 'anne@agence.fr');
    const page = await t.app.inject({ url: '/equipe/a-verifier', headers: { cookie } });
    expect(page.body).toContain('<caption>À vérifier : 2 demandes</caption>');
    expect(page.body).toMatch(
      /Rapide<\/a>.*<td data-label="Raison">Envoyée trop vite après l’ouverture de la page \(peut-être une vraie personne\)<\/td>/,
    );
    expect(page.body).toMatch(
      /Robot<\/a>.*<td data-label="Raison">Champ caché rempli \(robot probable\)<\/td>/,
    );
    const fastId = held.find((entry) => entry.spamReason === 'too_fast')!.lead.id;
    const leadPage = await t.app.inject({
      url: `/equipe/prospects/${fastId}`,
      headers: { cookie },
    });
    expect(leadPage.body).toContain(
      'cette demande attend dans « À vérifier » (Envoyée trop vite après l’ouverture de la page',
    );
  });
});
