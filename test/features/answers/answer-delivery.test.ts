import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/api-assertions.ts';
import { buildTestApp, validContact, type TestApp } from '../../helpers/app.ts';
import { brevoStandInEnv, startFakeBrevo, type FakeBrevo } from '../../helpers/fake-brevo.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.ts';
import { activeMember, FAST_SCRYPT, postForm, signIn } from '../staff/staff-session.ts';

const PROSPECT = 'marie.dupont@example.fr';
const INBOUND = 'reponses@agence.example';

let nodes: TestApp[] = [];
afterEach(async () => {
  for (const node of nodes.reverse()) await node.close();
  nodes = [];
});

/** A node of the journal, its workspace open to a signed-in member named « Claire ». */
async function node(env: Record<string, string>, shared?: TestApp) {
  const test = await buildTestApp({
    passwordCost: FAST_SCRYPT,
    dispatcherTimings: { pollMs: 20 },
    env: {
      DELIVERY: 'queued',
      DELIVERY_RETRY_BASE_MS: '1',
      DELIVERY_RETRY_MAX_MS: '1',
      INBOUND_ADDRESS: INBOUND,
      ...env,
      ...(shared && {
        DATA_DIR: shared.dataDir,
        ...(shared.config.databaseUrl && { DATABASE_URL: shared.config.databaseUrl }),
      }),
    },
  });
  nodes.push(test);
  return test;
}

async function answerFrom(test: TestApp, extra: Record<string, string> = {}) {
  if (!(await test.store.staff.accountByEmail('claire@agence.fr'))) {
    await activeMember(test.app, test.store, 'claire@agence.fr', 'member');
  }
  const session = await signIn(test.app, 'claire@agence.fr');
  const [entry] = await test.store.list();
  const leadId = entry!.lead.id;
  const send = (fields: Record<string, string>, path = 'repondre') =>
    postForm(
      test.app,
      `/equipe/prospects/${leadId}/${path}`,
      { _csrf: session.csrf, ...fields },
      session.cookie,
    );
  const page = async () =>
    (
      await test.app.inject({
        url: `/equipe/prospects/${leadId}`,
        headers: { cookie: session.cookie },
      })
    ).body;
  return { leadId, send, page, ...extra };
}

const ANSWER = { objet: 'Votre site', message: 'Bonjour Marie,\n\nParlons-en jeudi ?\n\nClaire' };

/**
 * docs/workspace.md, « Répondre », and docs/emails.md, « La réponse de l’équipe »: an answer from
 * the lead page is a delivery step: journaled, sent once through the provider from the agency's
 * address under the member's name, Reply-To INBOUND_ADDRESS, threaded under the confirmation.
 */
describe(`answers from the workspace (${defaultTestDialect})`, () => {
  let sink: SmtpSink;
  let prospectDown = false;
  let brevo: FakeBrevo;
  beforeAll(async () => {
    [sink, brevo] = await Promise.all([
      startSmtpSink({ recipientCode: (to) => (prospectDown && to === PROSPECT ? 451 : undefined) }),
      startFakeBrevo(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sink.close(), brevo.close()]);
  });
  const toProspect = () => sink.received.filter((mail) => mail.envelopeTo.includes(PROSPECT));

  it('SMTP: one e-mail, threaded, from the member; the lead is « Répondu »; a failure is retried once', async () => {
    sink.received.length = 0;
    // Retries 1 ms apart reach the default 30 attempts (`dead`) within a poll's interval on a fast
    // machine: the loop is stopped after the first refusal below, and the limit raised beside it.
    const test = await node({
      MAIL_PROVIDER: 'smtp',
      SMTP_URL: sink.url,
      DELIVERY_MAX_ATTEMPTS: '1000',
    });
    test.app.dispatcher.start();
    expect(
      (await postJson(test.app, '/api/contact', { ...validContact, EMAIL: PROSPECT })).statusCode,
    ).toBe(200);
    await expect.poll(() => toProspect().length).toBe(1);
    const confirmation = toProspect()[0]!.email;
    const { leadId, send, page } = await answerFrom(test);

    // The provider refuses for now (451): the answer waits, journaled, and is retried once the
    // provider is back (the loop held meanwhile, so the retry is the one after the refusal).
    prospectDown = true;
    expect((await send(ANSWER)).statusCode).toBe(303);
    const steps = () => test.store.deliveries.steps(leadId);
    const answerStep = async () => (await steps()).find((s) => s.destination === 'staff-answer');
    await expect.poll(async () => (await answerStep())?.attempts).toBeGreaterThanOrEqual(1);
    await test.app.dispatcher.stop();
    expect((await answerStep())?.status).toBe('retrying');
    expect(toProspect()).toHaveLength(1);
    // A second answer is refused while the first waits: one e-mail answer at a time.
    expect((await send(ANSWER)).statusCode).toBe(409);
    prospectDown = false;
    test.app.dispatcher.start();
    await expect.poll(() => toProspect().length).toBe(2);
    await expect.poll(async () => (await answerStep())?.status).toBe('done');
    const rounds = test.app.dispatcher.rounds();
    await expect.poll(() => test.app.dispatcher.rounds()).toBeGreaterThan(rounds + 3);
    expect(toProspect()).toHaveLength(2);

    const answer = toProspect()[1]!.email;
    expect(answer.subject).toBe('Votre site');
    expect(answer.from?.name).toContain('claire');
    expect(answer.from?.address).toBe(confirmation.from?.address);
    expect(answer.replyTo?.map((to) => to.address)).toEqual([INBOUND]);
    expect(answer.inReplyTo).toBe(confirmation.messageId);
    expect(answer.references).toBe(confirmation.messageId);
    expect(answer.text).toContain('Parlons-en jeudi ?');
    const shown = await page();
    expect(shown).toContain('<strong>Répondu</strong> par e-mail par claire');
    expect((await test.store.work.find(leadId))!.work.status).toBe('en-cours');
    const [stored] = await test.store.answers.list(leadId);
    expect(stored!.sentDetail).toBe(answer.messageId);
  });

  it('a call is recorded with its note, the lead « Répondu »', async () => {
    const test = await node({ MAIL_PROVIDER: 'smtp', SMTP_URL: sink.url });
    expect(
      (await postJson(test.app, '/api/contact', { ...validContact, EMAIL: 'paul@example.fr' }))
        .statusCode,
    ).toBe(200);
    const { leadId, send, page } = await answerFrom(test);
    expect((await send({ note: 'Rappelé, devis à envoyer' }, 'appel')).statusCode).toBe(303);
    expect(await page()).toContain('appel, note « Rappelé, devis à envoyer »');
    expect(await page()).toContain('<strong>Répondu</strong> par téléphone par claire');
    expect((await test.store.answers.list(leadId)).map((a) => a.channel)).toEqual(['phone']);
    // docs/workspace.md, « Le tableau de bord »: the call is this week's first answer, in time.
    const dashboard = await test.app.inject({
      url: '/equipe/tableau-de-bord',
      headers: { cookie: (await signIn(test.app, 'claire@agence.fr')).cookie },
    });
    expect(dashboard.body).toMatch(
      /<th scope="row">claire<\/th><td data-label="Prospects répondus">1<\/td><td data-label="Dans les 24 heures ouvrées">100\u00a0% \(1\)<\/td>/,
    );
    expect(dashboard.body).toContain(
      '<th scope="row">Toute l’équipe</th><td data-label="Prospects répondus">1</td>',
    );
    expect((await test.store.deliveries.steps(leadId)).map((s) => s.destination)).not.toContain(
      'staff-answer',
    );
  });

  it('an e-mail written from one’s own mail client is recorded, sends nothing, and keeps the promise', async () => {
    const test = await node({ MAIL_PROVIDER: 'smtp', SMTP_URL: sink.url });
    expect(
      (await postJson(test.app, '/api/contact', { ...validContact, EMAIL: 'lina@example.fr' }))
        .statusCode,
    ).toBe(200);
    const { leadId, send, page } = await answerFrom(test);
    expect(await page()).toContain('J’ai répondu depuis ma messagerie');
    expect(
      (await send({ note: 'Devis envoyé depuis Outlook', moyen: 'messagerie' }, 'appel'))
        .statusCode,
    ).toBe(303);
    expect(await page()).toContain(
      'e-mail depuis sa messagerie, note « Devis envoyé depuis Outlook »',
    );
    expect(await page()).toContain(
      '<strong>Répondu</strong> par e-mail depuis sa messagerie par claire',
    );
    expect((await test.store.answers.list(leadId)).map((a) => a.channel)).toEqual(['mailbox']);
    expect((await test.store.work.find(leadId))!.work.answeredAt).not.toBeNull();
    expect((await test.store.deliveries.steps(leadId)).map((s) => s.destination)).not.toContain(
      'staff-answer',
    );
  });

  it('Brevo: the answer carries the threading headers and is sent once', async () => {
    const test = await node({ ...brevoStandInEnv(brevo) });
    test.app.dispatcher.start();
    expect(
      (await postJson(test.app, '/api/contact', { ...validContact, EMAIL: PROSPECT })).statusCode,
    ).toBe(200);
    const mails = () =>
      brevo.sent.filter((mail) =>
        (mail.to as { email: string }[]).some((to) => to.email === PROSPECT),
      );
    await expect.poll(() => mails().length).toBe(1);
    const { send } = await answerFrom(test);
    expect((await send(ANSWER)).statusCode).toBe(303);
    await expect.poll(() => mails().length).toBe(2);
    const [confirmation, answer] = mails();
    const confirmationId = (
      await test.store.deliveries.steps((await test.store.list())[0]!.lead.id)
    ).find((step) => step.destination === 'confirmation-email')!.detail;
    expect(confirmation).toBeDefined();
    expect(answer!.headers).toMatchObject({
      'In-Reply-To': confirmationId,
      References: confirmationId,
    });
    expect(answer!.replyTo).toEqual({ email: INBOUND, name: expect.any(String) });
    expect((answer!.sender as { name: string }).name).toContain('claire');
  });

  it('an answer recorded while the step sends the previous one leaves too, each once', async () => {
    // docs/delivery.md, « The dispatcher »: an answer journaled while `staff-answer` runs plans the
    // step again; the run's settle then leaves it due instead of `done`. The SMTP server holds
    // the first answer's DATA until released, so the second is recorded mid-send.
    let held: Promise<void> | undefined;
    let holding = 0;
    let release = () => {};
    const holdingSink = await startSmtpSink({
      onArrival: async () => {
        if (!held) return;
        holding += 1;
        await held;
      },
    });
    try {
      const test = await node({ MAIL_PROVIDER: 'smtp', SMTP_URL: holdingSink.url });
      test.app.dispatcher.start();
      expect(
        (await postJson(test.app, '/api/contact', { ...validContact, EMAIL: PROSPECT })).statusCode,
      ).toBe(200);
      const mails = () => holdingSink.received.filter((m) => m.envelopeTo.includes(PROSPECT));
      await expect.poll(() => mails().length).toBe(1);
      const { leadId, send, page } = await answerFrom(test);
      held = new Promise<void>((resolve) => (release = resolve));
      const first = send(ANSWER);
      await expect.poll(() => holding).toBe(1);
      held = undefined;
      const { lead } = (await test.store.work.find(leadId))!;
      await test.store.answers.record({
        leadId,
        receivedAt: lead.receivedAt,
        at: new Date(),
        by: { id: 'x', name: 'Paul' },
        channel: 'email',
        subject: 'Précision',
        body: 'Et aussi : le devis est joint.',
        inReplyTo: null,
        provider: 'smtp',
      });
      release();
      expect((await first).statusCode).toBe(303);
      await expect.poll(() => mails().length).toBe(3);
      const step = async () =>
        (await test.store.deliveries.steps(leadId)).find((s) => s.destination === 'staff-answer');
      await expect.poll(async () => (await step())?.status).toBe('done');
      const rounds = test.app.dispatcher.rounds();
      await expect.poll(() => test.app.dispatcher.rounds()).toBeGreaterThan(rounds + 3);
      expect(mails().map((m) => m.email.subject)).toEqual([
        expect.any(String),
        'Votre site',
        'Précision',
      ]);
      expect((await step())?.status).toBe('done');
      expect(await page()).toContain('<strong>Répondu</strong> par e-mail par claire');
    } finally {
      release();
      await holdingSink.close();
    }
  }, 120_000);

  it('two nodes running the dispatcher send the answer once', async () => {
    sink.received.length = 0;
    const env = { MAIL_PROVIDER: 'smtp', SMTP_URL: sink.url };
    const first = await node(env);
    const second = await node(env, first);
    first.app.dispatcher.start();
    second.app.dispatcher.start();
    expect(
      (await postJson(first.app, '/api/contact', { ...validContact, EMAIL: PROSPECT })).statusCode,
    ).toBe(200);
    await expect.poll(() => toProspect().length).toBe(1);
    const { send } = await answerFrom(second);
    expect((await send(ANSWER)).statusCode).toBe(303);
    await expect.poll(() => toProspect().length).toBe(2);
    const rounds = [first.app.dispatcher.rounds(), second.app.dispatcher.rounds()];
    await expect.poll(() => first.app.dispatcher.rounds()).toBeGreaterThan(rounds[0]! + 3);
    await expect.poll(() => second.app.dispatcher.rounds()).toBeGreaterThan(rounds[1]! + 3);
    expect(toProspect()).toHaveLength(2);
  });
});
