import { afterEach, describe, expect, it } from 'vitest';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import type { InboxQuery } from '../../../src/features/inbox/lead-work.ts';
import type { Store } from '../../../src/kernel/journal/store.ts';
import type { ConsentChannel } from '../../../src/kernel/schemas/consent.ts';
import { hasPostgres, type TestDialect } from '../../helpers/postgres-databases.ts';
import {
  acceptLead,
  holdAsSpam,
  sharedDatabase,
  type SharedDatabase,
} from '../../helpers/test-stores.ts';

/** docs/workspace.md: the team's journal (status, assignee, notes, inbox queries) on both dialects. */
const dialects: TestDialect[] = hasPostgres() ? ['sqlite', 'postgres'] : ['sqlite'];

const ANNE = { id: 'staff-anne', name: 'Anne Martin' };
const BRUNO = { id: 'staff-bruno', name: 'Bruno Petit' };
const T0 = Date.parse('2026-11-20T09:00:00Z');

let sequence = 0;
function lead(
  kind: 'contact' | 'audit' | 'subscribe',
  data: Record<string, unknown>,
  minutes: number,
  /** null: a lead journaled before consent records. */
  channel: ConsentChannel | null = 'form',
): Lead {
  sequence += 1;
  const receivedAt = new Date(T0 + minutes * 60_000);
  return {
    kind,
    id: `lead-${String(sequence).padStart(4, '0')}`,
    receivedAt,
    data,
    ...(channel && {
      consent: {
        wordingHash: 'h',
        version: 'v',
        givenAt: receivedAt,
        channel,
        page: null,
        network: null,
      },
    }),
  } as Lead;
}

const marie = () =>
  lead(
    'contact',
    {
      PRENOM: 'Marie',
      NOM: 'Dupont',
      EMAIL: 'marie.dupont@example.fr',
      DEMANDE: 'Je voudrais apparaître\nsur Google Maps.',
    },
    1,
  );
const lea = () => lead('subscribe', { email: 'lea@example.fr', firstName: 'Léa' }, 2, 'api');
const paul = () =>
  lead(
    'audit',
    {
      email: 'paul@chantiers.fr',
      firstName: 'Paul',
      sector: 'btp',
      formData: { 'Combien de chantiers par an ?': 'Une trentaine de rénovations' },
    },
    3,
    'mcp',
  );
const ines = () =>
  lead('audit', { email: 'ines@cabinet.fr', firstName: 'Inès', sector: 'avocats' }, 4, null);

describe.each(dialects)('the team journal on %s (docs/workspace.md)', (dialect) => {
  let database: SharedDatabase;
  afterEach(async () => database?.close());

  async function journal(): Promise<Store> {
    database = await sharedDatabase(dialect);
    return database.open();
  }

  async function seeded(): Promise<{ store: Store; ids: Record<string, string> }> {
    const store = await journal();
    const leads = { marie: marie(), lea: lea(), paul: paul(), ines: ines() };
    for (const one of Object.values(leads)) await acceptLead(store, one);
    const spam = lead('contact', { PRENOM: 'Bot', EMAIL: 'bot@spam.test' }, 5);
    await store.deliveries.accept({
      lead: spam,
      steps: [],
      spam: true,
      idempotency: { bodyKey: `t:${spam.id}`, fingerprint: spam.id, expiredBefore: new Date(0) },
    });
    const ids = Object.fromEntries(Object.entries(leads).map(([name, one]) => [name, one.id]));
    return { store, ids: { ...ids, spam: spam.id } };
  }

  const names = async (store: Store, query: Partial<InboxQuery>) =>
    (await store.work.page({ limit: 50, ...query })).entries.map(
      (entry) =>
        (entry.lead.data as unknown as Record<string, string>).PRENOM ??
        (entry.lead.data as unknown as Record<string, string>).firstName,
    );

  it('a new lead is « nouveau », unassigned and unread; the inbox lists newest first without what the bot trap held', async () => {
    const { store } = await seeded();
    const page = await store.work.page({ limit: 50 });
    expect(page.total).toBe(4);
    expect(page.entries.map((entry) => entry.work)).toEqual(
      Array(4).fill({
        status: 'nouveau',
        assignee: null,
        readAt: null,
        readBy: null,
        startedAt: null,
        answeredAt: null,
      }),
    );
    expect(await names(store, {})).toEqual(['Inès', 'Paul', 'Léa', 'Marie']);
    expect(await names(store, { held: true })).toEqual(['Bot']);
    expect(await names(store, { order: 'due' })).toEqual(['Marie', 'Léa', 'Paul', 'Inès']);
  });

  it('pages follow each other with no lead twice and none missed', async () => {
    const { store } = await seeded();
    const first = await store.work.page({ limit: 3 });
    expect(first.next).toBeDefined();
    const second = await store.work.page({ limit: 3, after: first.next });
    expect(second.next).toBeUndefined();
    expect([...first.entries, ...second.entries].map((entry) => entry.lead.id)).toHaveLength(4);
    expect(new Set([...first.entries, ...second.entries].map((e) => e.lead.id)).size).toBe(4);
    // A cursor that is not one of ours starts from the first page instead of failing.
    expect((await store.work.page({ limit: 3, after: 'garbage' })).entries).toHaveLength(3);
  });

  it('filters by kind, period, sector, channel and delivery status', async () => {
    const { store } = await seeded();
    expect(await names(store, { kinds: ['audit'] })).toEqual(['Inès', 'Paul']);
    expect(await names(store, { sector: 'btp' })).toEqual(['Paul']);
    expect(await names(store, { channels: ['assistant'] })).toEqual(['Paul']);
    // A lead journaled before consent records counts as the API.
    expect(await names(store, { channels: ['api'] })).toEqual(['Inès', 'Léa']);
    expect(await names(store, { channels: ['site'] })).toEqual(['Marie']);
    expect(
      await names(store, {
        receivedFrom: new Date(T0 + 2 * 60_000),
        receivedBefore: new Date(T0 + 4 * 60_000),
      }),
    ).toEqual(['Paul', 'Léa']);
    expect(await names(store, { deliveryStatuses: ['pending'] })).toHaveLength(4);
    expect(await names(store, { deliveryStatuses: ['dead'] })).toEqual([]);
  });

  it('finds a lead by any word of its names, e-mail, message or answers, without accents, as prefixes', async () => {
    const { store } = await seeded();
    expect(await names(store, { search: 'lea' })).toEqual(['Léa']);
    expect(await names(store, { search: 'DUPONT' })).toEqual(['Marie']);
    expect(await names(store, { search: 'marie.dupont@example.fr' })).toEqual(['Marie']);
    expect(await names(store, { search: 'chantiers.fr' })).toEqual(['Paul']);
    expect(await names(store, { search: 'google maps' })).toEqual(['Marie']);
    expect(await names(store, { search: 'apparaitre' })).toEqual(['Marie']);
    expect(await names(store, { search: 'renov' })).toEqual(['Paul']);
    expect(await names(store, { search: 'trentaine marie' })).toEqual([]);
    expect(await names(store, { search: 'inès', kinds: ['audit'] })).toEqual(['Inès']);
    // Punctuation and operators are words apart, never query syntax.
    expect(await names(store, { search: '"dupont" * - ^(' })).toEqual(['Marie']);
    expect(await names(store, { search: 'bot' })).toEqual([]);
    expect(await names(store, { search: 'bot', held: true })).toEqual(['Bot']);
  });

  it('a word found in many leads lists them newest first or oldest first, page after page, with their total (docs/workspace.md, "Performances")', async () => {
    const store = await journal();
    const journaled: { id: string; minute: number; message: string; held: boolean }[] = [];
    for (let i = 0; i < 150; i += 1) {
      // Journaled out of their order of arrival, two by two in the same minute.
      const rank = (i * 37) % 150;
      const minute = Math.floor(rank / 2);
      // « Google » in a third of the leads; « ancien » only in the 20 oldest.
      const message = `${rank % 3 === 0 ? 'Vu sur Google.' : 'Bonjour.'} ${rank < 20 ? 'Ancien site.' : ''}`;
      const one = lead(
        'contact',
        { PRENOM: `N${rank}`, EMAIL: `n${rank}@example.fr`, DEMANDE: message },
        minute,
      );
      const held = rank % 30 === 0;
      await (held ? holdAsSpam(store, one) : acceptLead(store, one));
      journaled.push({ id: one.id, minute, message, held });
    }
    const newestFirst = (word: string, held = false) =>
      journaled
        .filter((one) => one.held === held && one.message.includes(word))
        .sort((a, b) => b.minute - a.minute || (a.id < b.id ? 1 : -1))
        .map((one) => one.id);
    const listed = async (query: Partial<InboxQuery>) => {
      const ids: string[] = [];
      let after: string | undefined;
      do {
        const page = await store.work.page({ limit: 7, ...query, after });
        ids.push(...page.entries.map((entry) => entry.lead.id));
        after = page.next;
      } while (after !== undefined);
      return ids;
    };
    const google = newestFirst('Google');
    expect(google).toHaveLength(45);
    expect(await listed({ search: 'google' })).toEqual(google);
    expect(await listed({ search: 'google', order: 'due' })).toEqual([...google].reverse());
    expect(await listed({ search: 'google', limit: 1 })).toEqual(google);
    expect((await store.work.page({ limit: 7, search: 'google' })).total).toBe(45);
    expect(await listed({ search: 'google', held: true })).toEqual(newestFirst('Google', true));
    // Common, but none among the newest leads.
    const ancient = newestFirst('Ancien');
    expect(ancient).toHaveLength(19);
    expect(await listed({ search: 'ancien', limit: 1 })).toEqual(ancient);
    expect(await listed({ search: 'ancien', limit: 1, order: 'due' })).toEqual(
      [...ancient].reverse(),
    );
    expect((await store.work.page({ limit: 1, search: 'ancien' })).total).toBe(19);
  });

  it('a status change is kept with who and when, starts the clock once, and a repeat records nothing', async () => {
    const { store, ids } = await seeded();
    const at = new Date(T0 + 3_600_000);
    expect(await store.work.setStatus(ids.marie!, 'en-cours', ANNE, at)).toBe(true);
    expect(
      await store.work.setStatus(ids.marie!, 'en-cours', ANNE, new Date(at.getTime() + 1)),
    ).toBe(true);
    expect(
      await store.work.setStatus(ids.marie!, 'traite', BRUNO, new Date(at.getTime() + 60_000)),
    ).toBe(true);
    expect(await store.work.setStatus('no-such-lead', 'traite', BRUNO, at)).toBe(false);
    const entry = await store.work.find(ids.marie!);
    expect(entry?.work).toMatchObject({ status: 'traite', startedAt: at });
    const history = await store.work.activity(ids.marie!);
    expect(history.map(({ kind, value, previous, by }) => ({ kind, value, previous, by }))).toEqual(
      [
        { kind: 'status', value: 'en-cours', previous: 'nouveau', by: ANNE },
        { kind: 'status', value: 'traite', previous: 'en-cours', by: BRUNO },
      ],
    );
    expect(await names(store, { workStatuses: ['traite'] })).toEqual(['Marie']);
    expect(await names(store, { workStatuses: ['nouveau'] })).toEqual(['Inès', 'Paul', 'Léa']);
  });

  it('assignment, notes and the first reading', async () => {
    const { store, ids } = await seeded();
    const at = new Date(T0 + 3_600_000);
    await store.work.assign(ids.paul!, BRUNO.id, ANNE, at);
    await store.work.addNote(ids.paul!, 'Rappeler jeudi.\nIl préfère le téléphone.', BRUNO, at);
    await store.work.markRead(ids.paul!, BRUNO, at);
    await store.work.markRead(ids.paul!, ANNE, new Date(at.getTime() + 1000));
    expect(await store.work.addNote('no-such-lead', 'x', BRUNO, at)).toBe(false);
    const entry = await store.work.find(ids.paul!);
    expect(entry?.work).toMatchObject({ assignee: BRUNO.id, readAt: at, readBy: BRUNO.id });
    expect(await names(store, { assignee: BRUNO.id })).toEqual(['Paul']);
    expect(await names(store, { assignee: null })).toEqual(['Inès', 'Léa', 'Marie']);
    expect(await names(store, { unread: true })).toEqual(['Inès', 'Léa', 'Marie']);
    const history = await store.work.activity(ids.paul!);
    expect(history.map(({ kind, value, by }) => ({ kind, value, by }))).toEqual([
      { kind: 'assignee', value: BRUNO.id, by: ANNE },
      { kind: 'note', value: 'Rappeler jeudi.\nIl préfère le téléphone.', by: BRUNO },
    ]);
  });

  it('counts the leads still unanswered up to a cutoff, and arrivals by kind and channel', async () => {
    const { store, ids } = await seeded();
    // docs/workspace.md, « La promesse des 24 heures ouvrées »: « Traité » closes a lead unanswered.
    await store.work.setStatus(ids.marie!, 'traite', ANNE, new Date(T0 + 3_600_000));
    const cutoffs = [new Date(T0 + 3 * 60_000), new Date(T0 + 10 * 60_000)];
    expect(await store.work.countWaiting(['contact', 'audit'], cutoffs)).toEqual([1, 2]);
    // Two periods in one query, split between Léa (minute 2) and Paul (minute 3).
    const split = [new Date(T0), new Date(T0 + 150_000), new Date(T0 + 3_600_000)];
    const [before, after] = await store.work.countReceived(split);
    expect(before).toEqual(
      expect.arrayContaining([
        { kind: 'contact', channel: 'site', held: false, count: 1 },
        { kind: 'subscribe', channel: 'api', held: false, count: 1 },
      ]),
    );
    expect(before).toHaveLength(2);
    expect(after).toEqual(
      expect.arrayContaining([
        { kind: 'contact', channel: 'site', held: true, count: 1 },
        { kind: 'audit', channel: 'assistant', held: false, count: 1 },
        { kind: 'audit', channel: 'api', held: false, count: 1 },
      ]),
    );
    expect(after).toHaveLength(3);
    const [whole] = await store.work.countReceived([new Date(T0), new Date(T0 + 3_600_000)]);
    expect(whole).toHaveLength(5);
    const caught = await store.work.caughtByReason(split);
    expect(caught.map((period) => period.map(({ caught, held }) => ({ caught, held })))).toEqual([
      [],
      [{ caught: 1, held: 1 }],
    ]);
    const started = await store.work.startTimes(new Date(T0), new Date(T0 + 7_200_000));
    expect(started).toEqual([
      { receivedAt: new Date(T0 + 60_000), startedAt: new Date(T0 + 3_600_000) },
    ]);
  });

  it('erasing a person removes their leads from search and their notes and history (RGPD art. 17)', async () => {
    const { store, ids } = await seeded();
    await store.work.addNote(ids.marie!, 'Cliente de Bruno', ANNE, new Date(T0));
    await store.people.forget('marie.dupont@example.fr', new Date(T0 + 1000));
    expect(await names(store, { search: 'dupont' })).toEqual([]);
    expect(await store.work.activity(ids.marie!)).toEqual([]);
    expect(await names(store, { search: 'paul' })).toEqual(['Paul']);
  });

  it('two nodes on one database see the same statuses (docs/deployment.md)', async () => {
    const { store, ids } = await seeded();
    const other = dialect === 'postgres' ? await database.open() : store;
    await store.work.setStatus(ids.ines!, 'archive', ANNE, new Date(T0 + 1000));
    await other.work.assign(ids.ines!, ANNE.id, BRUNO, new Date(T0 + 2000));
    expect((await other.work.find(ids.ines!))?.work).toMatchObject({
      status: 'archive',
      assignee: ANNE.id,
    });
    expect((await store.work.find(ids.ines!))?.work).toMatchObject({
      status: 'archive',
      assignee: ANNE.id,
    });
  });
});
