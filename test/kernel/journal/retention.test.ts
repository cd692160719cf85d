import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRetention, type Clock } from '../../../src/features/privacy/retention.ts';
import { emailOf } from '../../../src/kernel/lead/lead.ts';
import type { Store } from '../../../src/kernel/journal/store.ts';
import { defaultTestDialect } from '../../helpers/postgres-databases.ts';
import { readTables } from '../../helpers/raw-database.ts';
import {
  acceptLead,
  sharedDatabase,
  subscribeLead,
  type SharedDatabase,
} from '../../helpers/test-stores.ts';

const DAY = 24 * 60 * 60 * 1000;

/** A clock the test moves by hand: timers fire only when it says so (no sleeping). */
function simulatedClock(start: Date) {
  let now = start.getTime();
  let timers: { at: number; run: () => void }[] = [];
  const clock: Clock = {
    now: () => new Date(now),
    setTimeout(run, ms) {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return timer;
    },
    clearTimeout(timer) {
      timers = timers.filter((candidate) => candidate !== timer);
    },
  };
  return {
    clock,
    pending: () => timers.length,
    /** Moves time forward, firing due timers in order. */
    advance(ms: number) {
      now += ms;
      const due = timers.filter((timer) => timer.at <= now);
      timers = timers.filter((timer) => timer.at > now);
      for (const timer of due) timer.run();
    },
  };
}

let shared: SharedDatabase;
let store: Store;
beforeEach(async () => {
  shared = await sharedDatabase(defaultTestDialect);
  store = await shared.open();
});
afterEach(() => shared.close());

async function addresses(): Promise<string[]> {
  return (await store.list()).map((entry) => emailOf(entry.lead)).sort();
}

/** Resolves once the job's asynchronous run got there (real I/O; the simulated clock stays put). */
const eventually = (check: () => Promise<boolean>) =>
  expect.poll(check, { interval: 5 }).toBe(true);

describe('docs/consent.md: RETENTION_DAYS applied once a day by the running service', () => {
  it('erases a person whose last request is older than RETENTION_DAYS, counting from the last request', async () => {
    const start = new Date('2030-01-01T00:00:00Z');
    const sim = simulatedClock(start);
    const at = (daysAgo: number) => new Date(start.getTime() - daysAgo * DAY);
    const old = subscribeLead('old@example.fr', at(40));
    await acceptLead(store, old);
    // Same person, first request long ago, last one recent: kept whole.
    const back = [
      subscribeLead('back@example.fr', at(45)),
      subscribeLead('back@example.fr', at(5)),
    ];
    for (const lead of back) await acceptLead(store, lead);
    await acceptLead(store, subscribeLead('new@example.fr', at(1)));

    const runs: number[] = [];
    const erasedLeads: string[] = [];
    const job = startRetention({
      store,
      days: 30,
      clock: sim.clock,
      firstRunAfterMs: 1000,
      onRun: (erased) => {
        runs.push(erased.people);
        erasedLeads.push(...erased.leadIds);
      },
    });
    try {
      expect(await addresses()).toHaveLength(4);
      sim.advance(1000);
      await eventually(async () => runs.length === 1);
      expect(runs).toEqual([1]);
      // The run names the leads it erased (docs/operations.md: ids in the log, never addresses).
      expect(erasedLeads).toEqual([old.id]);
      expect(await addresses()).toEqual(['back@example.fr', 'back@example.fr', 'new@example.fr']);
      const tables = JSON.stringify(await readTables(shared.config));
      expect(tables).not.toContain('old@example.fr');

      // A day later the next run: nobody else is 30 days past their last request yet.
      await eventually(async () => sim.pending() === 1);
      sim.advance(DAY);
      await eventually(async () => runs.length === 2);
      expect(runs[1]).toBe(0);

      // 26 days on, "back" passed 30 days since its last request: gone with both requests.
      for (let day = 0; day < 26; day++) {
        await eventually(async () => sim.pending() === 1);
        sim.advance(DAY);
      }
      await eventually(async () => runs.length === 28);
      expect(await addresses()).toEqual(['new@example.fr']);
      expect(erasedLeads.sort()).toEqual([old.id, ...back.map((lead) => lead.id)].sort());
    } finally {
      job.stop();
    }
    expect(sim.pending()).toBe(0);
  });
});
