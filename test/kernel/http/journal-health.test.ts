import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { JournalAlert } from '../../../src/kernel/http/journal-alerts.ts';
import { createJournalHealth } from '../../../src/kernel/http/journal-health.ts';

/*
 * docs/operations.md (« What fails open, what never does »): a journal refusing writes for longer
 * than 2 minutes is announced to the agency once per cause, through the delivery alerts' channels,
 * and its end once; a shorter refusal is not. The clock is injected: minutes pass without waiting.
 */
const diskFull = () =>
  Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });

function node() {
  let clock = Date.UTC(2026, 11, 2, 9, 0);
  const told: JournalAlert[] = [];
  const health = createJournalHealth(pino({ level: 'silent' }), {
    announce: async (alert) => void told.push(alert),
    now: () => clock,
  });
  return { health, told, pass: (ms: number) => (clock += ms) };
}

describe('a journal that cannot write for long: one agency alert (docs/operations.md)', () => {
  it('refusing writes past 2 minutes: one alert naming the cause, then one recovery note', async () => {
    const { health, told, pass } = node();
    for (let second = 0; second <= 300; second += 5) {
      health.failed(diskFull());
      health.problem(); // the balancer's probe
      pass(5_000);
    }
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toMatch(/^Journal bloqué : le serveur .* refuse les écritures$/);
    expect(told[0]!.text).toContain('SQLITE_FULL');
    // Paris time, as every text the team reads: 9 h UTC is 10 h in Paris in December.
    expect(told[0]!.text).toContain('Depuis le 2 décembre 2026 à 10\u00a0h\u00a000');
    expect(told[0]!.mailPathFailing).toBe(false);

    health.wrote();
    expect(told.map((alert) => alert.subject)).toEqual([
      told[0]!.subject,
      expect.stringMatching(/^Journal rétabli : /),
    ]);
  });

  it('a refusal that heals within 2 minutes tells nobody', async () => {
    const { health, told, pass } = node();
    for (let second = 0; second < 110; second += 10) {
      health.failed(diskFull());
      pass(10_000);
    }
    health.wrote();
    expect(told).toEqual([]);
  });
});
