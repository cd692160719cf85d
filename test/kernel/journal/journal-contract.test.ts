import { afterEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/kernel/journal/store.ts';
import { hasPostgres, type TestDialect } from '../../helpers/postgres-databases.ts';
import {
  acceptLead,
  NOTIFICATION_STEP,
  sharedDatabase,
  subscribeLead,
  type SharedDatabase,
} from '../../helpers/test-stores.ts';

/** docs/deployment.md: the same Store behaviour on SQLite and on PostgreSQL, including between several nodes. */
const dialects: TestDialect[] = hasPostgres() ? ['sqlite', 'postgres'] : ['sqlite'];

describe.each(dialects)(
  'The journal on %s: one contract, both adapters (src/kernel/journal/journal-writes.ts)',
  (dialect) => {
    let database: SharedDatabase;
    afterEach(async () => database?.close());

    /**
     * Stores that share one database, as nodes do. A SQLite deployment is one node: its "nodes" here are
     * one store (two better-sqlite3 handles in one thread would wait on each other's locks); SQLite
     * across processes is covered by test/scale/migrate-processes.test.ts.
     */
    async function nodes(count: number): Promise<Store[]> {
      database = await sharedDatabase(dialect);
      const stores: Store[] = [];
      for (let i = 0; i < count; i += 1) {
        stores.push(dialect === 'sqlite' && stores[0] ? stores[0] : await database.open());
      }
      return stores;
    }

    const targets = [NOTIFICATION_STEP];
    const lease = () => ({
      targets,
      now: new Date(),
      leaseUntil: new Date(Date.now() + 60_000),
      limit: 100,
    });

    it('journals a lead with its steps as pending, then delivered, and says whether its address was known', async () => {
      const [store] = await nodes(1);
      const first = subscribeLead('Lea@Example.fr');
      const second = subscribeLead('lea@example.fr');
      expect(await acceptLead(store!, first)).toEqual({
        accepted: 'new',
        leadId: first.id,
        existing: false,
      });
      expect(await acceptLead(store!, second)).toEqual({
        accepted: 'new',
        leadId: second.id,
        existing: true,
      });
      expect((await store!.list({ statuses: ['pending'] })).map((e) => e.lead.id)).toEqual([
        first.id,
        second.id,
      ]);
      const [step] = await store!.deliveries.claim({ ...lease(), leadId: first.id });
      expect(step).toMatchObject({ leadId: first.id, status: 'pending', attempts: 0, lead: first });
      await store!.deliveries.settle(step!, { status: 'done', detail: 'ok' }, new Date());
      const [entry] = await store!.list({ statuses: ['delivered'] });
      expect(entry).toMatchObject({
        status: 'delivered',
        attempts: 1,
        providerAnswer: 'agency-notification: ok',
      });
      expect(entry!.lead).toEqual(first);
    });

    it('settles each kind of outcome: an attempt counted or not, its error masked, a success clearing it', async () => {
      const [store] = await nodes(1);
      const lead = subscribeLead('issues@example.fr');
      await acceptLead(store!, lead);
      const claimOne = async () => {
        const [step] = await store!.deliveries.claim({ ...lease(), leadId: lead.id });
        return step!;
      };
      const later = new Date(Date.now() + 60_000);
      await store!.deliveries.settle(
        await claimOne(),
        { status: 'postponed', nextAttemptAt: later },
        new Date(),
      );
      expect(await store!.deliveries.steps(lead.id)).toMatchObject([
        { status: 'pending', attempts: 0, nextAttemptAt: later, lastError: null },
      ]);
      await store!.deliveries.settle(
        await claimOne(),
        { status: 'retrying', error: 'refusé pour paul@example.fr', nextAttemptAt: later },
        new Date(),
      );
      const [retrying] = await store!.deliveries.steps(lead.id);
      expect(retrying).toMatchObject({ status: 'retrying', attempts: 1 });
      expect(retrying!.lastError).not.toContain('paul@example.fr');
      expect((await store!.find(lead.id))?.status).toBe('failed');
      await store!.deliveries.settle(
        await claimOne(),
        { status: 'done', detail: 'ok' },
        new Date(),
      );
      expect(await store!.deliveries.steps(lead.id)).toMatchObject([
        { status: 'done', attempts: 2, detail: 'ok', lastError: null },
      ]);
      expect(await store!.find(lead.id)).toMatchObject({
        status: 'delivered',
        attempts: 2,
        providerAnswer: 'agency-notification: ok',
        lastError: null,
      });
    });

    it('a step planned again while it runs is left due by its settle, and freed; the next run settles it', async () => {
      // docs/delivery.md, « The dispatcher »: a later answer plans `staff-answer` again mid-run.
      const [store] = await nodes(1);
      const lead = subscribeLead('reponse@example.fr');
      await acceptLead(store!, lead);
      const answerStep = { destination: 'staff-answer', provider: NOTIFICATION_STEP.provider };
      const answer = (body: string) =>
        store!.answers.record({
          leadId: lead.id,
          receivedAt: lead.receivedAt,
          at: new Date(),
          by: { id: 's', name: 'Claire' },
          channel: 'email',
          subject: 'Bonjour',
          body,
          inReplyTo: null,
          provider: answerStep.provider,
        });
      const claimAnswer = () =>
        store!.deliveries.claim({ ...lease(), targets: [answerStep], leadId: lead.id });
      await answer('Première');
      const [running] = await claimAnswer();
      await answer('Seconde');
      expect(await claimAnswer()).toEqual([]);
      const done = { status: 'done', detail: '<1@x>' } as const;
      expect(await store!.deliveries.settle(running!, done, new Date())).toBe('planned-again');
      const stepNow = async () =>
        (await store!.deliveries.steps(lead.id)).find((s) => s.destination === 'staff-answer');
      expect(await stepNow()).toMatchObject({ status: 'pending', attempts: 0 });
      const [next] = await claimAnswer();
      expect(next).toBeDefined();
      expect(await store!.deliveries.settle(next!, done, new Date())).toBe('settled');
      expect(await stepNow()).toMatchObject({ status: 'done', attempts: 1 });
    });

    it('one new address accepted at once on two nodes: exactly one existing: false', async () => {
      const stores = await nodes(2);
      const leads = Array.from({ length: 12 }, () => subscribeLead('meme@example.fr'));
      const answers = await Promise.all(leads.map((lead, i) => acceptLead(stores[i % 2]!, lead)));
      expect(answers.filter((answer) => 'existing' in answer && !answer.existing)).toHaveLength(1);
    });

    it('the same Idempotency-Key or the same body on two nodes at once is one lead', async () => {
      const stores = await nodes(2);
      const leads = Array.from({ length: 8 }, () => subscribeLead('corps@example.fr'));
      const answers = await Promise.all(
        leads.map((lead, i) =>
          stores[i % 2]!.deliveries.accept({
            lead,
            steps: targets,
            idempotency: { bodyKey: 'same-body', fingerprint: 'f', expiredBefore: new Date(0) },
          }),
        ),
      );
      expect(answers.filter((answer) => answer.accepted === 'new')).toHaveLength(1);
      expect(new Set(answers.map((answer) => 'leadId' in answer && answer.leadId)).size).toBe(1);
      expect(await stores[0]!.list()).toHaveLength(1);
    });

    it.skipIf(dialect === 'sqlite')(
      'applies its migrations once when two nodes start at the same time',
      async () => {
        await nodes(0);
        const stores = await Promise.all([database.open(), database.open()]);
        const lead = subscribeLead('depart@example.fr');
        await acceptLead(stores[0]!, lead);
        expect((await stores[1]!.list()).map((entry) => entry.lead.id)).toEqual([lead.id]);
      },
    );

    it('claims due steps oldest first, each once across nodes, and leaves leased and future ones', async () => {
      const stores = await nodes(2);
      const due = Array.from({ length: 10 }, (_, i) =>
        subscribeLead(`f${i}@example.fr`, new Date(Date.now() - 60_000 + i)),
      );
      for (const lead of due) await acceptLead(stores[0]!, lead);
      const later = subscribeLead('plus-tard@example.fr');
      await acceptLead(stores[0]!, later);
      const [step] = await stores[0]!.deliveries.claim({ ...lease(), leadId: later.id });
      await stores[0]!.deliveries.settle(
        step!,
        { status: 'retrying', error: 'boom', nextAttemptAt: new Date(Date.now() + 60_000) },
        new Date(),
      );
      const claimed: string[][] = [[], []];
      await Promise.all(
        stores.map(async (store, node) => {
          for (let steps; (steps = await store.deliveries.claim({ ...lease(), limit: 2 })).length;)
            claimed[node]!.push(...steps.map((s) => s.leadId));
        }),
      );
      const all = [...claimed[0]!, ...claimed[1]!];
      expect(all.sort()).toEqual(due.map((lead) => lead.id).sort());
      expect(await stores[1]!.deliveries.claim(lease())).toEqual([]);
      expect((await stores[0]!.find(later.id))?.status).toBe('failed');
    });

    it('claims the oldest due steps first, whether pending or back for a retry', async () => {
      const [store] = await nodes(1);
      const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
      const [oldest, retried, newer, newest] = [50, 45, 30, 20].map((seconds, i) =>
        subscribeLead(`ordre${i}@example.fr`, ago(seconds)),
      );
      for (const lead of [oldest, retried, newer, newest]) await acceptLead(store!, lead!);
      const [failed] = await store!.deliveries.claim({ ...lease(), leadId: retried!.id });
      await store!.deliveries.settle(
        failed!,
        { status: 'retrying', error: 'boom', nextAttemptAt: ago(40) },
        new Date(),
      );
      const claimTwo = async () =>
        (await store!.deliveries.claim({ ...lease(), limit: 2 })).map((step) => step.leadId).sort();
      expect(await claimTwo()).toEqual([oldest!.id, retried!.id].sort());
      expect(await claimTwo()).toEqual([newer!.id, newest!.id].sort());
      expect(await claimTwo()).toEqual([]);
    });

    it('lists a dead step in one alert only, and again if that alert could not be sent', async () => {
      const [store] = await nodes(1);
      const lead = subscribeLead('mort@example.fr');
      await acceptLead(store!, lead);
      const [step] = await store!.deliveries.claim({ ...lease(), leadId: lead.id });
      await store!.deliveries.settle(step!, { status: 'dead', error: 'gave up' }, new Date());
      expect((await store!.find(lead.id))?.status).toBe('dead');
      const alerted = await store!.deliveries.takeDeadForAlert(new Date());
      expect(alerted.map((s) => [s.leadId, s.lastError])).toEqual([[lead.id, 'gave up']]);
      expect(await store!.deliveries.takeDeadForAlert(new Date())).toEqual([]);
      await store!.deliveries.unmarkAlerted(alerted);
      expect(await store!.deliveries.takeDeadForAlert(new Date())).toHaveLength(1);
      expect(await store!.deliveries.backlog()).toEqual([
        expect.objectContaining({ destination: 'agency-notification', pending: 0, dead: 1 }),
      ]);
    });

    it('holds a step back while a step it comes after is unfinished (unsubscribe after the list add, docs/consent.md)', async () => {
      const [store] = await nodes(1);
      const lead = subscribeLead('desabonnee@example.fr');
      const add = { destination: 'crm-contact', provider: 'brevo' };
      const remove = { destination: 'newsletter-unsubscribe', provider: 'brevo' };
      await acceptLead(store!, lead, [add, remove]);
      const both = [add, { ...remove, after: [add.destination] }];
      const claimNow = (now = new Date()) =>
        store!.deliveries.claim({
          targets: both,
          now,
          leaseUntil: new Date(now.getTime() + 1_000),
          limit: 10,
        });

      const [first, ...others] = await claimNow();
      expect([first?.destination, others]).toEqual(['crm-contact', []]);
      // The add fails and waits for its retry: the removal still waits, even once its lease is over.
      const retryAt = new Date(Date.now() + 60_000);
      await store!.deliveries.settle(
        first!,
        { status: 'retrying', error: 'Brevo 429', nextAttemptAt: retryAt },
        new Date(),
      );
      expect(await claimNow(new Date(Date.now() + 2_000))).toEqual([]);

      const [retried] = await claimNow(new Date(retryAt.getTime() + 1));
      expect(retried?.destination).toBe('crm-contact');
      await store!.deliveries.settle(retried!, { status: 'done', detail: 'saved' }, new Date());
      const after = await claimNow(new Date(retryAt.getTime() + 2_000));
      expect(after.map((step) => step.destination)).toEqual(['newsletter-unsubscribe']);
      // Without `after`, the same steps are claimed together: the constraint is what held it back.
      const other = subscribeLead('autre@example.fr');
      await acceptLead(store!, other, [add, remove]);
      const together = await store!.deliveries.claim({
        targets: [add, remove],
        now: new Date(),
        leaseUntil: new Date(Date.now() + 1_000),
        limit: 10,
        leadId: other.id,
      });
      expect(together.map((step) => step.destination).sort()).toEqual([
        'crm-contact',
        'newsletter-unsubscribe',
      ]);
    });

    it('keeps a shared rate budget across nodes to its limit in any window, and pauses it until a reset', async () => {
      const stores = await nodes(2);
      // A window of a minute, so that a loaded machine's slow answers (seconds) cannot blur it.
      const limit = { calls: 3, windowMs: 60_000 };
      // Six callers at once on two nodes: three now, the next three a whole window after the first
      // three (docs/delivery.md, « Provider rate budgets »).
      const waits = await Promise.all(
        Array.from({ length: 6 }, (_, i) => stores[i % 2]!.budgets.reserve('test', limit, 120_000)),
      );
      expect(waits.every((wait) => wait.reserved)).toBe(true);
      const ms = waits.map((wait) => wait.waitMs).sort((a, b) => a - b);
      expect(ms.slice(0, 3).every((wait) => wait < 20_000)).toBe(true);
      expect(ms.slice(3).every((wait) => wait > 40_000)).toBe(true);
      expect(await stores[0]!.budgets.reserve('test', limit, 1_000)).toMatchObject({
        reserved: false,
      });
      await stores[1]!.budgets.pauseUntil('other', Date.now() + 5_000);
      const paused = await stores[0]!.budgets.reserve('other', limit, 1_000);
      expect(paused.reserved).toBe(false);
      expect(paused.waitMs).toBeGreaterThan(3_000);
    });

    it('purges the leads received before a date, with their steps (retention)', async () => {
      const [store] = await nodes(1);
      const old = subscribeLead('ancien@example.fr', new Date('2022-01-01T00:00:00Z'));
      const recent = subscribeLead('recent@example.fr');
      await acceptLead(store!, old);
      await acceptLead(store!, recent);
      expect(await store!.purgeReceivedBefore(new Date('2023-01-01T00:00:00Z'))).toBe(1);
      expect((await store!.list()).map((entry) => entry.lead.id)).toEqual([recent.id]);
      expect(await store!.find(old.id)).toBeUndefined();
      expect(await store!.deliveries.steps(old.id)).toEqual([]);
    });
    it('gives one confirmation per address and window, to the first lead that claims it (docs/consent.md)', async () => {
      const [store] = await nodes(1);
      const window = {
        at: new Date('2026-11-26T10:00:00Z'),
        since: new Date('2026-11-25T10:00:00Z'),
      };
      const claim = (email: string, leadId: string, at = window.at, since = window.since) =>
        store!.confirmations.claim({
          kind: 'subscribe',
          mailbox: email,
          domain: email.split('@')[1]!.toLowerCase(),
          leadId,
          at,
          since,
          domainMax: 0,
          domainSince: since,
        });
      const together = await Promise.all([
        claim('Lea@Example.fr', 'lead-a'),
        claim('lea@example.fr', 'lead-b'),
      ]);
      expect(together).toEqual([true, false]);
      expect(await claim('lea@example.fr', 'lead-a')).toBe(true);
      expect(await claim('autre@example.fr', 'lead-c')).toBe(true);
      const nextDay = new Date('2026-11-27T10:00:01Z');
      expect(
        await claim('lea@example.fr', 'lead-b', nextDay, new Date('2026-11-26T10:00:01Z')),
      ).toBe(true);
    });

    it('keeps a provider error that quotes a NUL byte (PostgreSQL text refuses NUL)', async () => {
      const [store] = await nodes(1);
      const lead = subscribeLead('nul@example.fr');
      await acceptLead(store!, lead);
      const [step] = await store!.deliveries.claim({ ...lease(), leadId: lead.id });
      const error = 'SMTP said \u0000\u00ff garbage';
      await store!.deliveries.settle(
        step!,
        { status: 'retrying', error, nextAttemptAt: new Date() },
        new Date(),
      );
      const entry = await store!.find(lead.id);
      expect(entry).toMatchObject({ status: 'failed' });
      expect(entry!.lastError).toBe('agency-notification: SMTP said \uFFFD\u00ff garbage');
    });
  },
);
