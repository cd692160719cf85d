import { describe, expect, it } from 'vitest';
import type { ConsentChannel } from '../../../src/kernel/schemas/consent.ts';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import type { StepOutcome } from '../../../src/kernel/lead/deliveries.ts';
import type { SpamReason } from '../../../src/kernel/lead/spam-reason.ts';
import type { Store } from '../../../src/kernel/journal/store.ts';
import { useTestApp, validAudit, validContact, validSubscribe } from '../../helpers/app.ts';
import {
  holdAsSpam,
  acceptLead,
  NOTIFICATION_STEP,
  recordCall,
} from '../../helpers/test-stores.ts';
import { activeMember, FAST_SCRYPT, signIn } from '../staff/staff-session.ts';

/*
 * docs/workspace.md, « Le tableau de bord »: the week's leads by kind and channel against last
 * week, the median business time to « en cours », the leads waiting and overdue, the delivery
 * backlog and the spam caught, read through the store's port (this file runs on both journals).
 */

/** Thursday 26 November 2026, 15:00 in Paris: this week began Monday 23 at midnight. */
const NOW = new Date('2026-11-26T14:00:00Z');
/** A Paris wall time of November 2026 (UTC+1) as an instant. */
const paris = (day: number, hour: number) => new Date(Date.UTC(2026, 10, day, hour - 1, 0, 0));

let sequence = 0;
function lead(kind: Lead['kind'], receivedAt: Date, channel?: ConsentChannel): Lead {
  sequence += 1;
  const data = kind === 'contact' ? validContact : kind === 'audit' ? validAudit : validSubscribe;
  return {
    kind,
    id: `dash-${String(sequence).padStart(3, '0')}`,
    receivedAt,
    data: { ...data },
    ...(channel && {
      consent: {
        wordingHash: 'a'.repeat(64),
        version: 'v1',
        givenAt: receivedAt,
        channel,
        page: null,
        network: null,
      },
    }),
  } as Lead;
}

async function held(store: Store, receivedAt: Date, reason: SpamReason) {
  const spam = lead('subscribe', receivedAt, 'form');
  await holdAsSpam(store, spam, reason);
}

/** The lead's notification step claimed and ended as `outcome`, now. */
async function settleNotification(store: Store, leadId: string, outcome: StepOutcome) {
  const [step] = await store.deliveries.claim({
    targets: [NOTIFICATION_STEP],
    now: NOW,
    leaseUntil: new Date(NOW.getTime() + 60_000),
    limit: 1,
    leadId,
  });
  await store.deliveries.settle(step!, outcome, NOW);
}

const by = { id: 'staff-x', name: 'Anne' };

describe('the dashboard (docs/workspace.md, « Le tableau de bord »)', () => {
  const t = useTestApp({ now: () => NOW, passwordCost: FAST_SCRYPT });

  it('shows this week against last by kind and channel, the promise, delivery and spam', async () => {
    const store = t.store;
    // This week: a contact from the form started 2 business hours after it came, an audit by the
    // API still « nouveau » (due Thursday 16:00: not late yet), a sign-up by an assistant.
    const startedSoon = lead('contact', paris(23, 10), 'form');
    const waiting = lead('audit', paris(24, 10));
    await acceptLead(store, startedSoon);
    await acceptLead(store, waiting);
    await acceptLead(store, lead('subscribe', paris(25, 11), 'mcp'));
    // Started and answered by phone at once (docs/workspace.md: the answer ends the promise).
    const startAndCall = async (started: Lead, at: Date) => {
      await store.work.setStatus(started.id, 'en-cours', by, at);
      await recordCall(store, started, at, by);
    };
    await startAndCall(startedSoon, paris(23, 12));
    // Last week: a contact still « nouveau » (late since Tuesday 16:00), one started after 18
    // business hours.
    await acceptLead(store, lead('contact', paris(20, 10)));
    const startedLate = lead('contact', paris(17, 10));
    await acceptLead(store, startedLate);
    await startAndCall(startedLate, paris(19, 10));
    // Spam caught this week, and one step given up.
    await held(store, paris(24, 9), 'too_fast');
    await held(store, paris(25, 9), 'honeypot');
    await settleNotification(store, startedSoon.id, { status: 'dead', error: 'Boîte pleine' });

    await activeMember(t.app, store, 'anne@agence.fr', 'member', NOW);
    const { cookie } = await signIn(t.app, 'anne@agence.fr');
    const inbox = await t.app.inject({ url: '/equipe', headers: { cookie } });
    expect(inbox.body).toContain('<a href="/equipe/tableau-de-bord">Tableau de bord</a>');
    const page = await t.app.inject({ url: '/equipe/tableau-de-bord', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    // On a phone each figure is a card naming what it counts (workspace-styles.ts, `.card-table`):
    // every cell carries its column's name; the rows are then read without it.
    expect(page.body).not.toMatch(/<td>/);
    expect(page.body).toContain('<td data-label="Semaine dernière">');
    const body = page.body.replace(/<td data-label="[^"]*">/g, '<td>');
    expect(body).toContain('aria-current="page">Tableau de bord</a>');
    expect(body).toContain('depuis le lundi 23 novembre');

    // Leads received, held ones apart: by kind, then by channel (this week, last week).
    const row = (label: string, ...values: number[]) =>
      `<tr><th scope="row">${label}</th>${values.map((v) => `<td>${v}</td>`).join('')}</tr>`;
    expect(body).toContain(row('Contact', 1, 2));
    expect(body).toContain(row('Audit', 1, 0));
    expect(body).toContain(row('Lettre', 1, 0));
    expect(body).toContain(row('Formulaire du site', 1, 0));
    expect(body).toContain(row('API', 1, 2));
    expect(body).toContain(row('Assistant IA (MCP/WebMCP)', 1, 0));
    // Each chart is an image named by its title and described by its figures.
    expect(body).toMatch(
      /<svg role="img" aria-labelledby="recus-type-title recus-type-desc"[^>]*><title id="recus-type-title">Prospects reçus par type<\/title><desc id="recus-type-desc">Contact : 1 \(Semaine en cours\), 2 \(Semaine dernière\)/,
    );

    // The promise: two waiting, one overdue; medians in business time.
    expect(body).toMatch(/<strong>2<\/strong> demandes attendent une première réponse/);
    expect(body).toContain('<strong class="overdue">1 en retard</strong>');
    expect(body).toContain(
      '<th scope="row">Semaine en cours</th><td>2\u00a0h\u00a000</td><td>1</td><td>1</td>',
    );
    expect(body).toContain(
      '<th scope="row">Semaine dernière</th><td>18\u00a0h\u00a000</td><td>1</td><td>1</td>',
    );

    // Delivery: four notifications waiting, one given up, and its lead listed with its page.
    expect(body).toMatch(
      /Étapes de livraison : <strong>4<\/strong> en attente, <strong>0<\/strong> en échec[^,]*, <strong>1<\/strong> abandonnée,/,
    );
    expect(body).toContain(
      '<th scope="row">Notification à l’équipe</th><td>4</td><td>0</td><td>1</td><td>0</td>',
    );
    expect(body).toContain(`<a href="/equipe/prospects/${startedSoon.id}">Marie Dupont</a>`);

    // Spam caught this week, by reason in French, both still waiting in « À vérifier ».
    expect(body).toMatch(
      /<strong>2<\/strong> retenues par le piège à robots cette semaine, dont 2 encore/,
    );
    expect(body).toContain(row('Champ caché rempli (robot probable)', 1, 0));
    expect(body).toContain(
      row('Envoyée trop vite après l’ouverture de la page (peut-être une vraie personne)', 1, 0),
    );
  });

  it('lists the ten latest leads whose delivery failed, given up or refused, newest first', async () => {
    const store = t.store;
    // Twelve leads on Monday and Tuesday, one an hour, each ending its delivery in turn given up,
    // refused and failed (a new attempt planned): the list takes across the three.
    const outcomes = [
      { status: 'dead', error: 'Boîte pleine' },
      { status: 'refused', error: 'Adresse refusée' },
      {
        status: 'retrying',
        error: 'Délai dépassé',
        nextAttemptAt: new Date(NOW.getTime() + 3_600_000),
      },
    ] as const;
    const failing: Lead[] = [];
    for (let index = 0; index < 12; index += 1) {
      const failed = lead('subscribe', paris(23 + Math.floor(index / 8), 9 + (index % 8)), 'form');
      await acceptLead(store, failed);
      await settleNotification(store, failed.id, outcomes[index % 3]!);
      failing.push(failed);
    }
    await activeMember(t.app, store, 'anne@agence.fr', 'member', NOW);
    const { cookie } = await signIn(t.app, 'anne@agence.fr');
    const page = await t.app.inject({ url: '/equipe/tableau-de-bord', headers: { cookie } });
    const listed = [...page.body.matchAll(/<li><a href="\/equipe\/prospects\/([^"]+)">/g)].map(
      (match) => match[1],
    );
    expect(listed).toEqual(
      failing
        .slice(2)
        .reverse()
        .map((failed) => failed.id),
    );
  });
});
