import { describe, expect, it } from 'vitest';
import {
  addBusinessHours,
  businessMsBetween,
  frenchPublicHolidays,
  overdueCutoff,
  parseBusinessHours,
} from '../../../src/features/inbox/business-hours.ts';

/** docs/workspace.md, "La promesse des 24 heures ouvrées". */
const NINE_TO_SIX = parseBusinessHours('09:00-18:00');
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

describe('French public holidays (Code du travail, L3133-1)', () => {
  it('the eleven days, Easter Monday, Ascension and Whit Monday computed from Easter', () => {
    expect([...frenchPublicHolidays(2026)].sort()).toEqual(
      [
        '2026-01-01',
        '2026-04-06',
        '2026-05-01',
        '2026-05-08',
        '2026-05-14',
        '2026-05-25',
        '2026-07-14',
        '2026-08-15',
        '2026-11-01',
        '2026-11-11',
        '2026-12-25',
      ].map(day),
    );
    const in2027 = frenchPublicHolidays(2027);
    for (const date of ['2027-03-29', '2027-05-06', '2027-05-17']) {
      expect(in2027.has(day(date))).toBe(true);
    }
  });
});

describe('24 business hours after a lead arrives, Europe/Paris', () => {
  const due = (received: string, hours = NINE_TO_SIX) =>
    addBusinessHours(new Date(received), 24, hours).toISOString();

  it('counts only opening hours, Monday to Friday', () => {
    // Friday 16:00 in Paris: 2 h on Friday, 9 h Monday, 9 h Tuesday, 4 h Wednesday.
    expect(due('2026-11-20T15:00:00Z')).toBe('2026-11-25T12:00:00.000Z');
  });

  it('a lead sent on a weekend or at night starts the clock at the next opening', () => {
    expect(due('2026-11-21T10:00:00Z')).toBe(due('2026-11-23T08:00:00Z'));
    expect(due('2026-11-23T05:00:00Z')).toBe('2026-11-25T14:00:00.000Z');
  });

  it('skips public holidays (11 November)', () => {
    // Tuesday 10 Nov 17:00: 1 h, Wednesday off, Thursday 9 h, Friday 9 h, Monday 5 h.
    expect(due('2026-11-10T16:00:00Z')).toBe('2026-11-16T13:00:00.000Z');
  });

  it('follows the change to summer time', () => {
    // Friday 27 March 17:00 (UTC+1) → Wednesday 1 April 14:00 (UTC+2).
    expect(due('2026-03-27T16:00:00Z')).toBe('2026-04-01T12:00:00.000Z');
  });

  it('follows the configured hours', () => {
    expect(due('2026-11-20T15:00:00Z', parseBusinessHours('08:30-12:30'))).toBe(
      '2026-11-30T11:30:00.000Z',
    );
    expect(() => parseBusinessHours('18:00-09:00')).toThrow(/close after/);
    expect(() => parseBusinessHours('9h-18h')).toThrow(/HH:MM/);
  });

  it('a lead is overdue exactly when it arrived at or before the cutoff', () => {
    const nows = ['2026-11-25T12:00:00Z', '2026-11-23T08:30:00Z', '2026-11-16T13:00:00Z'];
    for (const now of nows.map((text) => new Date(text))) {
      const cutoff = overdueCutoff(now, 24, NINE_TO_SIX);
      for (let t = now.getTime() - 21 * 86_400_000; t <= now.getTime(); t += 17 * 60_000) {
        const received = new Date(t);
        const overdue = addBusinessHours(received, 24, NINE_TO_SIX) <= now;
        expect(overdue, received.toISOString()).toBe(received <= cutoff);
      }
    }
  });

  it('time left is counted in business hours', () => {
    const from = new Date('2026-11-20T15:00:00Z');
    expect(businessMsBetween(from, new Date('2026-11-23T09:00:00Z'), NINE_TO_SIX)).toBe(
      3 * 3_600_000,
    );
    expect(businessMsBetween(new Date('2026-11-23T09:00:00Z'), from, NINE_TO_SIX)).toBe(
      -3 * 3_600_000,
    );
  });
});
