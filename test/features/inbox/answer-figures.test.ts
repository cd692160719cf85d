import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirstAnswer } from '../../../src/features/answers/index.ts';
import { answerFigures } from '../../../src/features/inbox/answer-figures.ts';
import { answerDueAt } from '../../../src/features/inbox/answer-promise.ts';
import { parseBusinessHours } from '../../../src/features/inbox/business-hours.ts';
import type { Store } from '../../../src/kernel/journal/store.ts';
import type { Lead } from '../../../src/kernel/lead/lead.ts';
import { validContact } from '../../helpers/app.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import {
  acceptLead,
  recordCall,
  sharedDatabase,
  type SharedDatabase,
} from '../../helpers/test-stores.ts';

const NINE_TO_SIX = parseBusinessHours('09:00-18:00');
const HOUR = 3_600_000;
const claire = { id: 'staff-claire', name: 'Claire Martin' };
const yanis = { id: 'staff-yanis', name: 'Yanis Benali' };

/** A first answer; times are UTC (Paris is UTC+1 in November). */
const first = (
  leadId: string,
  receivedAt: string,
  at: string,
  by: FirstAnswer['by'],
  kind: FirstAnswer['kind'] = 'contact',
): FirstAnswer => ({ leadId, kind, receivedAt: new Date(receivedAt), at: new Date(at), by });

/**
 * docs/workspace.md, « Le tableau de bord »: the week of 9 November 2026, whose Wednesday 11 is
 * Armistice Day, a French public holiday (Code du travail, L3133-1), on 09:00–18:00 Paris hours.
 */
const WEEK: FirstAnswer[] = [
  // Tue 09:00 → Thu 12:00: 9 h + holiday + 3 h = 12 h.
  first('a', '2026-11-10T08:00:00Z', '2026-11-12T11:00:00Z', claire),
  // Tue 14:00 → Fri 16:00: 4 h + holiday + 9 h + 7 h = 20 h, in time thanks to the holiday only.
  first('b', '2026-11-10T13:00:00Z', '2026-11-13T15:00:00Z', claire),
  // Mon 10:00 → Fri 10:00 (a call): 8 h + 9 h + holiday + 9 h + 1 h = 27 h, late.
  first('c', '2026-11-09T09:00:00Z', '2026-11-13T09:00:00Z', yanis),
  // Thu 17:00 → Fri 09:30: 1 h 30.
  first('e', '2026-11-12T16:00:00Z', '2026-11-13T08:30:00Z', yanis),
  // A newsletter sign-up asked nothing: not counted.
  first('d', '2026-11-09T09:00:00Z', '2026-11-13T17:00:00Z', yanis, 'subscribe'),
];

describe('the answer promise measured on the first answers (docs/workspace.md)', () => {
  it('share within 24 business hours, median and slowest, per person and overall', () => {
    expect(answerFigures(WEEK, NINE_TO_SIX)).toEqual({
      overall: { answered: 4, inTime: 3, medianMs: 16 * HOUR, slowestMs: 27 * HOUR },
      perPerson: [
        {
          name: 'Claire Martin',
          answered: 2,
          inTime: 2,
          medianMs: 16 * HOUR,
          slowestMs: 20 * HOUR,
        },
        {
          name: 'Yanis Benali',
          answered: 2,
          inTime: 1,
          medianMs: 14.25 * HOUR,
          slowestMs: 27 * HOUR,
        },
      ],
    });
  });

  it('no first answer in the week: no figures', () => {
    expect(answerFigures([], NINE_TO_SIX)).toEqual({ overall: undefined, perPerson: [] });
  });
});

describe(`the journal's first answers (${defaultTestDialect})`, () => {
  let database: SharedDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await sharedDatabase(defaultTestDialect);
    store = await database.open();
  });
  afterAll(() => database.close());

  it('a lead counts once, in the week of its first answer, by whoever gave it', async () => {
    const lead: Lead = {
      kind: 'contact',
      id: 'answered-lead',
      receivedAt: new Date('2026-11-10T08:00:00Z'),
      data: { ...validContact },
    };
    await acceptLead(store, lead);
    const answer = (by: typeof claire, at: string, channel: 'email' | 'phone') =>
      store.answers.record({
        leadId: lead.id,
        receivedAt: lead.receivedAt,
        at: new Date(at),
        by,
        channel,
        subject: channel === 'email' ? 'Objet' : null,
        body: 'Texte',
        inReplyTo: null,
        provider: 'outbox',
      });
    await answer(claire, '2026-11-12T11:00:00Z', 'phone');
    await answer(yanis, '2026-11-13T11:00:00Z', 'email');
    const week = await store.answers.firstAnswers(
      new Date('2026-11-08T23:00:00Z'),
      new Date('2026-11-15T23:00:00Z'),
    );
    expect(week).toEqual([
      {
        leadId: lead.id,
        kind: 'contact',
        receivedAt: lead.receivedAt,
        at: new Date('2026-11-12T11:00:00Z'),
        by: claire,
      },
    ]);
    // From Friday on, Yanis's e-mail is a later answer, not a first one.
    expect(
      await store.answers.firstAnswers(
        new Date('2026-11-13T00:00:00Z'),
        new Date('2026-11-20T00:00:00Z'),
      ),
    ).toEqual([]);
  });

  // docs/workspace.md, « La promesse des 24 heures ouvrées »: a lead owes its answer until one is
  // given (an e-mail or a call), whatever its status says of the work begun; « Traité » and
  // « Archivé » close it.
  it('a lead set « En cours » still owes its answer; a call ends the promise; « Traité » closes it', async () => {
    const receivedAt = new Date('2026-11-23T08:00:00Z');
    const leads = ['promise-started', 'promise-called', 'promise-closed'].map((id): Lead => ({
      kind: 'contact',
      id,
      receivedAt,
      data: { ...validContact },
    }));
    for (const lead of leads) await acceptLead(store, lead);
    const [started, called, closed] = leads.map((lead) => lead.id) as [string, string, string];
    const at = new Date('2026-11-23T09:00:00Z');
    await store.work.setStatus(started, 'en-cours', claire, at);
    await recordCall(store, { id: called, receivedAt }, at, claire);
    await store.work.setStatus(closed, 'traite', claire, at);

    const awaiting = await store.work.page({ awaitingAnswer: true, limit: 10 });
    const ids = awaiting.entries.map((entry) => entry.lead.id);
    expect(ids).toContain(started);
    expect(ids).not.toContain(called);
    expect(ids).not.toContain(closed);
    expect(awaiting.total).toBe(1);
    expect(await store.work.countWaiting(['contact'], [new Date('2026-11-30T00:00:00Z')])).toEqual([
      1,
    ]);

    const hours = NINE_TO_SIX;
    const entryOf = async (id: string) => (await store.work.find(id))!;
    // Received Monday 09:00 Paris: 9 h on Monday and Tuesday, 6 h on Wednesday → Wednesday 15:00.
    expect(answerDueAt(await entryOf(started), hours)).toEqual(new Date('2026-11-25T14:00:00Z'));
    expect((await entryOf(called)).work.answeredAt).toEqual(at);
    expect(answerDueAt(await entryOf(called), hours)).toBeUndefined();
    expect(answerDueAt(await entryOf(closed), hours)).toBeUndefined();
  });
});
