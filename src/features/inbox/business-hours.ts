/*
 * The site promises an answer within 24 business hours (docs/workspace.md, "La promesse des 24 heures
 * ouvrées"): hours counted only on working days (Monday to Friday, French public holidays excepted)
 * between the opening and closing times, in Europe/Paris.
 */

export interface BusinessHours {
  /** Minutes after midnight, Europe/Paris. */
  opensAt: number;
  closesAt: number;
}

export const DEFAULT_BUSINESS_HOURS = '09:00-18:00';
export const BUSINESS_HOURS_PATTERN = String.raw`^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-4]):[0-5]\d$`;

/** "09:00-18:00" → minutes; throws when closing is not after opening. */
export function parseBusinessHours(text: string): BusinessHours {
  const match = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/.exec(text.trim());
  if (!match) throw new Error(`business hours must read HH:MM-HH:MM, got ${text}`);
  const [, oh, om, ch, cm] = match.map(Number) as [number, number, number, number, number];
  const hours = { opensAt: oh * 60 + om, closesAt: ch * 60 + cm };
  if (hours.closesAt <= hours.opensAt || hours.closesAt > 24 * 60) {
    throw new Error(`business hours must close after they open, got ${text}`);
  }
  return hours;
}

const ZONE = 'Europe/Paris';
const DAY_MS = 86_400_000;
const parts = new Intl.DateTimeFormat('en-GB', {
  timeZone: ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const HOUR_MS = 3_600_000;

/**
 * Paris's offset from UTC by UTC hour. Its clocks change on a UTC hour (01:00 UTC, EU rule), so one
 * hour has one offset; asking Intl is ~100 times slower than the lookup, and the dashboard asks
 * several times per lead of a week (docs/performance.md, « The workspace »).
 */
const offsets = new Map<number, number>();

/** The Paris wall clock of an instant, read as if it were UTC (so date arithmetic stays in UTC). */
function wallClock(instant: number): number {
  const hour = Math.floor(instant / HOUR_MS);
  let offset = offsets.get(hour);
  if (offset === undefined) {
    const f: Record<string, number> = {};
    for (const part of parts.formatToParts(hour * HOUR_MS)) f[part.type] = Number(part.value);
    offset =
      Date.UTC(f.year!, f.month! - 1, f.day!, f.hour!, f.minute!, f.second!) - hour * HOUR_MS;
    // Two years of hours at most: a long-running server does not keep every hour it ever read.
    if (offsets.size > 20_000) offsets.clear();
    offsets.set(hour, offset);
  }
  return instant + offset;
}

/** The instant at which Paris clocks show `wall` (a UTC-read wall time); DST gaps resolve forward. */
function instantOf(wall: number): number {
  let guess = wall - (wallClock(wall) - wall);
  guess = wall - (wallClock(guess) - guess);
  return guess;
}

/** Easter Sunday (anonymous Gregorian computus), as a UTC midnight. */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

const holidayCache = new Map<number, Set<number>>();

/** The eleven French public holidays of a year (Code du travail, L3133-1), as UTC midnights. */
export function frenchPublicHolidays(year: number): Set<number> {
  let days = holidayCache.get(year);
  if (!days) {
    const e = easter(year);
    days = new Set([
      Date.UTC(year, 0, 1),
      e + DAY_MS, // lundi de Pâques
      Date.UTC(year, 4, 1),
      Date.UTC(year, 4, 8),
      e + 39 * DAY_MS, // Ascension
      e + 50 * DAY_MS, // lundi de Pentecôte
      Date.UTC(year, 6, 14),
      Date.UTC(year, 7, 15),
      Date.UTC(year, 10, 1),
      Date.UTC(year, 10, 11),
      Date.UTC(year, 11, 25),
    ]);
    holidayCache.set(year, days);
  }
  return days;
}

function isWorkingDay(midnight: number): boolean {
  const weekday = new Date(midnight).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  return !frenchPublicHolidays(new Date(midnight).getUTCFullYear()).has(midnight);
}

/** The day's business window as instants, or undefined on a day off; `midnight` is a wall date. */
function windowOf(midnight: number, hours: BusinessHours): [number, number] | undefined {
  if (!isWorkingDay(midnight)) return undefined;
  return [
    instantOf(midnight + hours.opensAt * 60_000),
    instantOf(midnight + hours.closesAt * 60_000),
  ];
}

function wallMidnight(instant: number): number {
  const wall = wallClock(instant);
  return wall - (wall % DAY_MS);
}

/** A year of days off would be a configuration error: the walk stops rather than spin. */
const MAX_DAYS = 400;

/** When `hours` business hours have passed since `start` (a lead's answer is due then). */
export function addBusinessHours(start: Date, hours: number, business: BusinessHours): Date {
  let remaining = hours * 3_600_000;
  let day = wallMidnight(start.getTime());
  for (let i = 0; i < MAX_DAYS; i += 1, day += DAY_MS) {
    const window = windowOf(day, business);
    if (!window) continue;
    const from = Math.max(start.getTime(), window[0]);
    if (from >= window[1]) continue;
    if (remaining <= window[1] - from) return new Date(from + remaining);
    remaining -= window[1] - from;
  }
  throw new Error('no business hours within a year');
}

/**
 * The latest arrival whose answer was due by `now`: a lead received at or before it is overdue.
 * The inverse of addBusinessHours, so the journal can count and sort overdue leads by arrival.
 */
export function overdueCutoff(now: Date, hours: number, business: BusinessHours): Date {
  let remaining = hours * 3_600_000;
  let day = wallMidnight(now.getTime());
  for (let i = 0; i < MAX_DAYS; i += 1, day -= DAY_MS) {
    const window = windowOf(day, business);
    if (!window) continue;
    const until = Math.min(now.getTime(), window[1]);
    if (until <= window[0]) continue;
    if (remaining <= until - window[0]) return new Date(until - remaining);
    remaining -= until - window[0];
  }
  throw new Error('no business hours within a year');
}

/** Business time between two instants (negative when `to` is before `from`), in ms. */
export function businessMsBetween(from: Date, to: Date, business: BusinessHours): number {
  if (to < from) return -businessMsBetween(to, from, business);
  let total = 0;
  let day = wallMidnight(from.getTime());
  for (let i = 0; i < MAX_DAYS * 3; i += 1, day += DAY_MS) {
    const window = windowOf(day, business);
    if (window) {
      const start = Math.max(from.getTime(), window[0]);
      const end = Math.min(to.getTime(), window[1]);
      if (end > start) total += end - start;
    }
    if (day > to.getTime()) break;
  }
  return total;
}

/*
 * The Paris calendar, for what happens on a Paris day or week: the team's daily summary
 * (docs/workspace.md, « Le point du matin ») and the dashboard's weeks.
 */

/** The Paris calendar day of an instant, as "YYYY-MM-DD". */
export function parisDay(instant: Date): string {
  return new Date(wallMidnight(instant.getTime())).toISOString().slice(0, 10);
}

/** The instant Paris clocks show `minutes` after the midnight of the Paris day `day`. */
export function parisTimeOn(day: string, minutes: number): Date {
  return new Date(instantOf(Date.parse(`${day}T00:00:00Z`) + minutes * 60_000));
}

/** Monday to Friday, French public holidays excepted. */
export function isBusinessDay(day: string): boolean {
  return isWorkingDay(Date.parse(`${day}T00:00:00Z`));
}

/** The Paris day `days` after (or before, when negative) `day`. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The Monday of the Paris week holding the instant, as "YYYY-MM-DD". */
export function parisWeekStart(instant: Date): string {
  const day = parisDay(instant);
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}
