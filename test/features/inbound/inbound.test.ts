import { describe, expect, it } from 'vitest';
import { teamSummaryEmail } from '../../../src/features/inbox/team-summary-email.ts';
import { teamSummaryFacts } from '../../../src/features/inbox/team-summary-facts.ts';
import { parseBusinessHours } from '../../../src/features/inbox/business-hours.ts';
import { mailIdentity } from '../../../src/features/site/mail-identity.ts';
import { CONFIRMATION_DESTINATION } from '../../../src/kernel/lead/destination.ts';
import { expectApiError, postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validContact } from '../../helpers/app.ts';
import { recordCall } from '../../helpers/test-stores.ts';
import { activeMember, FAST_SCRYPT, postForm, signIn } from '../staff/staff-session.ts';

const SECRET = 'inbound-secret-0123456789abcdef';
const WITH_SECRET = { 'x-inbound-secret': SECRET };

/** docs/inbound.md: the prospects' replies and the bounces, through the inbound routes. */
describe('inbound messages, bounces and complaints (docs/inbound.md)', () => {
  const t = useTestApp(
    { env: { INBOUND_SECRET: SECRET }, passwordCost: FAST_SCRYPT },
    { each: true },
  );

  async function lead(fields: Record<string, string> = {}) {
    const answer = await postJson(t.app, '/api/contact', { ...validContact, ...fields });
    expect(answer.statusCode).toBe(200);
    const [entry] = (await t.store.list()).slice(-1);
    return entry!.lead.id;
  }

  async function staffPage() {
    await activeMember(t.app, t.store, 'anne@agence.fr', 'member');
    const { cookie } = await signIn(t.app, 'anne@agence.fr');
    return (path: string) => t.app.inject({ url: path, headers: { cookie } }).then((r) => r.body);
  }

  /** The text of the team's daily summary as it would leave now (docs/emails.md). */
  async function summaryText() {
    const facts = await teamSummaryFacts(
      t.store,
      new Date(),
      parseBusinessHours(t.config.workspace.businessHours),
      8 * 60,
    );
    const settings = { ...t.config.mail, siteUrl: t.config.siteUrl, identity: mailIdentity() };
    return teamSummaryEmail(facts, settings).text;
  }

  function brevoInbound(item: Record<string, unknown>, query = '') {
    return postJson(t.app, `/inbound/brevo${query}`, { items: [item] }, query ? {} : WITH_SECRET);
  }

  function rawMail(message: string, headers: Record<string, string> = WITH_SECRET) {
    return t.app.inject({
      method: 'POST',
      url: '/inbound/mail',
      headers: { 'content-type': 'message/rfc822', ...headers },
      payload: Buffer.from(message.replace(/\r?\n/g, '\r\n')),
    });
  }

  it('attaches a Brevo reply by In-Reply-To, a raw reply by address, and shows them as text', async () => {
    const first = await lead({ EMAIL: 'marie.dupont@example.fr' });
    const latest = await lead({ EMAIL: 'marie.dupont@example.fr', PRENOM: 'Marie-Anne' });
    const steps = await t.store.deliveries.steps(first);
    const confirmation = steps.find((step) => step.destination === CONFIRMATION_DESTINATION)!;
    expect(confirmation.detail).toMatch(/^<.+>$/);

    // By header: written from another address, it still goes to the lead it answers (the first).
    const brevo = await brevoInbound({
      MessageId: '<reply-1@mail.example.org>',
      InReplyTo: confirmation.detail,
      From: { Name: 'Marie', Address: 'marie.perso@example.org' },
      Subject: 'Re: Votre demande',
      RawTextBody:
        'Mardi me va <script>alert(1)</script>.\n\nLe lun. 1 déc. 2026 à 10:00, Agence <contact@agence.fr> a écrit :\n> Bonjour Marie,\n> nous avons bien reçu votre demande.\n',
      Attachments: [{ Name: 'plan.pdf', ContentType: 'application/pdf', ContentLength: 24_576 }],
    });
    expect(brevo.statusCode).toBe(200);
    expect(brevo.json()).toEqual({ received: 1, toReview: 0 });
    // Brevo retries a webhook it did not see answered: the same message is kept once.
    await brevoInbound({
      MessageId: '<reply-1@mail.example.org>',
      InReplyTo: confirmation.detail,
      From: { Address: 'marie.perso@example.org' },
      RawTextBody: 'x',
    });
    expect(await t.store.inbound.ofLead(first)).toHaveLength(1);

    // By address: no header of ours, so the sender's latest lead.
    const raw = await rawMail(`From: Marie Dupont <Marie.Dupont@example.fr>
To: contact@agence.fr
Subject: Une question
Message-ID: <raw-1@example.fr>
Content-Type: text/plain; charset=utf-8

Et pour le devis ?
`);
    expect(raw.statusCode).toBe(200);
    expect((await t.store.inbound.ofLead(latest)).map((m) => m.matchedBy)).toEqual(['address']);

    const page = await staffPage();
    const list = await page('/equipe');
    expect(list.match(/Nouveau message du prospect/g)).toHaveLength(2);
    const lead1 = await page(`/equipe/prospects/${first}`);
    expect(lead1).toContain('<h3>Nouveau message du prospect</h3>');
    expect(lead1).toContain('Mardi me va &lt;script&gt;alert(1)&lt;/script&gt;.');
    expect(lead1).not.toContain('<script>alert');
    expect(lead1).toMatch(/<details><summary>Historique cité<\/summary>.*nous avons bien reçu/s);
    expect(lead1).toContain('<li>plan.pdf (24 Ko)</li>');
    // Opened once: read for everyone, in the page and in the list.
    expect(await page(`/equipe/prospects/${first}`)).toContain('<h3>Message du prospect</h3>');
    expect((await page('/equipe')).match(/Nouveau message du prospect/g)).toHaveLength(1);
  });

  it('attaches a reply to an earlier answer of the team by its header, from any address', async () => {
    const id = await lead({ EMAIL: 'marie.dupont@example.fr' });
    const { lead: journaled } = (await t.store.work.find(id))!;
    const answer = (body: string) =>
      t.store.answers.record({
        leadId: id,
        receivedAt: journaled.receivedAt,
        at: new Date(),
        by: { id: 's', name: 'Claire' },
        channel: 'email',
        subject: 'Votre site',
        body,
        inReplyTo: null,
        provider: 'outbox',
      });
    const first = await answer('Première réponse');
    await t.store.answers.markSent(first.id, '<answer-1@agence.example>', new Date());
    const second = await answer('Seconde réponse');
    await t.store.answers.markSent(second.id, '<answer-2@agence.example>', new Date());
    const raw = await rawMail(`From: marie.perso@example.org
In-Reply-To: <answer-1@agence.example>
Subject: Re: Votre site
Message-ID: <reply-to-answer@example.org>

Oui, jeudi me va.
`);
    expect(raw.json()).toEqual({ received: 1, toReview: 0 });
    expect(await t.store.inbound.ofLead(id)).toEqual([
      expect.objectContaining({ matchedBy: 'header', body: 'Oui, jeudi me va.' }),
    ]);
  });

  it('keeps a message from an unknown sender in « À vérifier », with the reason', async () => {
    await lead();
    const raw = await rawMail(`From: inconnu@example.net
Subject: Bonjour
Message-ID: <raw-2@example.net>

Vous faites des sites ?
`);
    expect(raw.json()).toEqual({ received: 1, toReview: 1 });
    const page = await staffPage();
    const review = await page('/equipe/a-verifier');
    expect(review).toContain('De inconnu@example.net');
    expect(review).toContain('Aucune demande ne vient de cette adresse');
    expect(review).toContain('Vous faites des sites ?');
    // The navigation counts it with the held leads: one message waits, no lead is held.
    expect(review).toMatch(/À vérifier <span class="nav-count">1<\/span>/);
  });

  it('attaches a waiting message by hand to a lead found by name, or dismisses it (no script, CSRF, trail)', async () => {
    const id = await lead({ EMAIL: 'marie.dupont@example.fr' });
    for (const [from, messageId] of [
      ['marie.pro@example.net', '<hand-1@example.net>'],
      ['robot@example.net', '<hand-2@example.net>'],
    ] as const) {
      await rawMail(
        `From: ${from}\nSubject: Suite\nMessage-ID: ${messageId}\n\nC’est Marie, de mon autre adresse.\n`,
      );
    }
    const [robot, marie] = await t.store.inbound.unmatched(10);
    expect(marie!.from).toBe('marie.pro@example.net');
    await activeMember(t.app, t.store, 'anne@agence.fr', 'member');
    const session = await signIn(t.app, 'anne@agence.fr');
    const get = (url: string) =>
      t.app.inject({ url, headers: { cookie: session.cookie } }).then((r) => r.body);
    const post = (url: string, fields: Record<string, string>) =>
      postForm(t.app, url, fields, session.cookie);

    // A GET search under the message offers the matching leads, each a button.
    const found = await get(`/equipe/a-verifier?message=${marie!.id}&q=Dupont`);
    expect(found).toContain('Rattacher à Marie Dupont');
    expect(await get(`/equipe/a-verifier?message=${marie!.id}&q=Personne`)).toContain(
      'Aucune demande ne correspond à « Personne ».',
    );
    const attach = `/equipe/a-verifier/messages/${marie!.id}/rattacher`;
    // Without the form's token, refused and nothing moves.
    expect((await post(attach, { prospect: id })).statusCode).toBe(403);
    const attached = await post(attach, { _csrf: session.csrf, prospect: id });
    expect(attached.statusCode).toBe(303);
    expect(attached.headers.location).toBe(`/equipe/prospects/${id}`);
    // Twice (a second tab): it waits no more.
    expect((await post(attach, { _csrf: session.csrf, prospect: id })).statusCode).toBe(404);
    expect(await get('/equipe')).toContain('Nouveau message du prospect');
    const leadPage = await get(`/equipe/prospects/${id}`);
    expect(leadPage).toContain('<h3>Nouveau message du prospect</h3>');
    expect(leadPage).toContain('(rattaché à la main depuis « À vérifier »)');
    expect(leadPage).toContain('C’est Marie, de mon autre adresse.');

    const dismissed = await post(`/equipe/a-verifier/messages/${robot!.id}/ecarter`, {
      _csrf: session.csrf,
    });
    expect(dismissed.statusCode).toBe(303);
    const review = await get('/equipe/a-verifier');
    expect(review).not.toContain('marie.pro@example.net');
    expect(review).not.toContain('robot@example.net');
    expect(await t.store.inbound.unmatched(10)).toEqual([]);

    // docs/workspace-security.md, "Audit trail": the lead by its name, the stranger by no address.
    await activeMember(t.app, t.store, 'admin@agence.fr', 'admin');
    const admin = await signIn(t.app, 'admin@agence.fr');
    const trail = (
      await t.app.inject({ url: '/equipe/journal', headers: { cookie: admin.cookie } })
    ).body;
    expect(trail).toContain('Message rattaché à la main');
    expect(trail).toContain(`<a href="/equipe/prospects/${id}">Marie Dupont</a>`);
    expect(trail).toContain('Message sans demande écarté');
    expect(trail).not.toContain('robot@example.net');
  });

  it('refuses a request without the secret, and a 30 MB message, with the error shape', async () => {
    const message = 'From: a@example.fr\n\nx\n';
    expectApiError(await rawMail(message, {}), 404, 'not_found');
    expectApiError(await rawMail(message, { 'x-inbound-secret': `${SECRET}x` }), 404, 'not_found');
    expectApiError(await brevoInbound({ RawTextBody: 'x' }, '?secret=faux'), 404, 'not_found');
    expect((await brevoInbound({ RawTextBody: 'x' }, `?secret=${SECRET}`)).statusCode).toBe(200);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/inbound/mail',
      headers: { 'content-type': 'message/rfc822', ...WITH_SECRET },
      payload: Buffer.alloc(30 * 1024 * 1024, 'a'),
    });
    const error = expectApiError(huge, 413, 'payload_too_large');
    expect(error.message).toContain(String(t.config.inbound.maxBytes));
  });

  it('flags an address on a hard bounce (page, list, summary) and opts it out on a complaint', async () => {
    const id = await lead({
      EMAIL: 'marie@gmial.com',
      SMS: '06 12 34 56 78',
      SMS__COUNTRY_CODE: '+33',
    });
    const event = (name: string, email = 'marie@gmial.com') =>
      postJson(
        t.app,
        '/inbound/brevo/events',
        { event: name, email, 'message-id': '<x@smtp-relay.mailin.fr>', reason: 'user unknown' },
        WITH_SECRET,
      );
    expect((await event('hard_bounce')).json()).toEqual({ received: 1 });
    // An address no lead has is not recorded.
    expect((await event('hard_bounce', 'personne@example.com')).json()).toEqual({ received: 0 });

    const page = await staffPage();
    const lead1 = await page(`/equipe/prospects/${id}`);
    expect(lead1).toContain(
      '<strong>Adresse injoignable</strong> · Appelez plutôt au <a href="tel:+33612345678">',
    );
    expect(await page('/equipe')).toContain('Adresse injoignable</strong> · Appelez plutôt');
    expect(await summaryText()).toMatch(/Adresse injoignable : appelez plutôt au 06 12 34 56 78/);

    expect(await t.store.optOut.find('marie@gmial.com')).toBeUndefined();
    await event('spam');
    expect(await t.store.optOut.find('marie@gmial.com')).toMatchObject({ reason: 'plainte-spam' });
    expect(await page(`/equipe/prospects/${id}`)).toContain('<strong>Signalé comme spam</strong>');
  });

  it('the daily summary lists every lead with an unread message or a flagged address, answered ones included', async () => {
    const by = { id: 's', name: 'Anne' };
    // Answered by phone (no longer « À traiter »), or archived.
    const started = async (
      fields: Record<string, string>,
      status: 'en-cours' | 'archive' = 'en-cours',
    ) => {
      const id = await lead(fields);
      await t.store.work.setStatus(id, status, by, new Date());
      if (status === 'en-cours') {
        await recordCall(t.store, (await t.store.find(id))!.lead, new Date(), by);
      }
      return id;
    };
    const writing = await started({ EMAIL: 'paul@example.fr', PRENOM: 'Paul', NOM: 'Durand' });
    const bounced = await started({
      EMAIL: 'jean@example.fr',
      PRENOM: 'Jean',
      NOM: 'Morel',
      SMS: '06 12 34 56 78',
      SMS__COUNTRY_CODE: '+33',
    });
    await started({ EMAIL: 'zoe@example.fr', PRENOM: 'Zoé', NOM: 'Roux' }, 'archive');
    await rawMail(
      'From: paul@example.fr\nMessage-ID: <paul-1@example.fr>\n\nJe rappelle demain.\n',
    );
    for (const email of ['jean@example.fr', 'zoe@example.fr']) {
      await postJson(t.app, '/inbound/brevo/events', { event: 'hard_bounce', email }, WITH_SECRET);
    }
    const text = await summaryText();
    expect(text).toContain('Messages et adresses (2)');
    expect(text).toMatch(/Paul Durand[\s\S]*Contact : Nouveau message du prospect\./);
    expect(text).toMatch(
      /Jean Morel[\s\S]*Contact : Adresse injoignable : appelez plutôt au 06 12 34 56 78\./,
    );
    expect(text).toContain(`/equipe/prospects/${writing}`);
    expect(text).toContain(`/equipe/prospects/${bounced}`);
    // An archived lead is nobody's work any more.
    expect(text).not.toContain('Zoé Roux');
    // Opened, the message is read: the next summary no longer lists Paul.
    await t.store.inbound.markRead(writing, 'Anne', new Date());
    expect(await summaryText()).not.toContain('Paul Durand');
  });

  it('counts messages and flags as the person’s data: access download, erasure (docs/consent.md)', async () => {
    const id = await lead({ EMAIL: 'lea@example.fr' });
    await rawMail('From: lea@example.fr\nMessage-ID: <lea-1@example.fr>\n\nMerci !\n');
    await postJson(
      t.app,
      '/inbound/brevo/events',
      { event: 'hard_bounce', email: 'lea@example.fr' },
      WITH_SECRET,
    );
    const file = await t.store.people.show('lea@example.fr');
    expect(file.related.inbound_messages).toEqual([
      expect.objectContaining({ lead_id: id, body: 'Merci !' }),
    ]);
    expect(file.related.address_flags).toEqual([expect.objectContaining({ state: 'unreachable' })]);
    await t.store.people.forget('lea@example.fr', new Date());
    expect(await t.store.inbound.ofLead(id)).toEqual([]);
    expect((await t.store.inbound.flagsAmong(['lea@example.fr'])).size).toBe(0);
  });

  it('reads an SMTP delivery status notification (RFC 3464) on the raw route', async () => {
    const id = await lead({ EMAIL: 'paul@orange.fe' });
    const dsn = (status: string) => `From: MAILER-DAEMON@mx.agence.fr
Subject: Undelivered Mail Returned to Sender
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status; boundary="B"

--B
Content-Type: text/plain

Votre message n'a pas pu être remis.
--B
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.agence.fr

Final-Recipient: rfc822; paul@orange.fe
Action: failed
Status: ${status}
Diagnostic-Code: smtp; 552 ${status} mailbox full

--B--
`;
    for (let round = 0; round < 2; round++) await rawMail(dsn('5.2.2'));
    expect(
      (await t.store.inbound.flagsAmong(['paul@orange.fe'])).get('paul@orange.fe')?.state,
    ).toBe('soft-bounce');
    await rawMail(dsn('5.2.2'));
    const page = await staffPage();
    expect(await page(`/equipe/prospects/${id}`)).toContain('<strong>Boîte pleine</strong>');
    expect(await t.store.inbound.ofLead(id)).toHaveLength(0);
  });
});
