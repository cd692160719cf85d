/*
 * The agency works in France: a time in an e-mail is read in Paris time, written as a French
 * person writes it (« 26 novembre 2026 à 6 h 48 », « 1er mars »), never a UTC ISO timestamp.
 * One formatter, built once: Intl resolves the summer and winter offsets from the time zone data.
 */
const PARTS = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** « 26 novembre 2026 à 6 h 48 », in Europe/Paris time (U+00A0 around « h »). */
export function frenchDateTime(date: Date): string {
  const part: Record<string, string> = {};
  for (const { type, value } of PARTS.formatToParts(date)) part[type] = value;
  const day = part.day === '1' ? '1er' : part.day;
  // No-break spaces around « h » (French typography): a line never ends between 6 and h.
  return `${day} ${part.month} ${part.year} à ${Number(part.hour)}\u00a0h\u00a0${part.minute}`;
}

const DAY_PARTS = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
});

/** « jeudi 26 novembre », « mardi 1er décembre », the Paris day of an instant. */
export function frenchDay(date: Date): string {
  const part: Record<string, string> = {};
  for (const { type, value } of DAY_PARTS.formatToParts(date)) part[type] = value;
  return `${part.weekday} ${part.day === '1' ? '1er' : part.day} ${part.month}`;
}

const TIME_PARTS = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * « lundi 30 novembre à 12 h », « mardi 1er décembre à 9 h 30 »: a time promised to a person, in
 * Paris time, the way it is said (no « 00 » minutes; no-break spaces around « h »).
 */
export function frenchDayAndTime(date: Date): string {
  const part: Record<string, string> = {};
  for (const { type, value } of TIME_PARTS.formatToParts(date)) part[type] = value;
  const minutes = part.minute === '00' ? '' : `\u00a0${part.minute}`;
  return `${frenchDay(date)} à ${Number(part.hour)}\u00a0h${minutes}`;
}

const NUMERIC = new Intl.DateTimeFormat('fr-FR', {
  timeZone: 'Europe/Paris',
  dateStyle: 'short',
  timeStyle: 'short',
});

/**
 * « 02/12/2026 09:16 », Paris time: a column of times the team scans (the command line), and what a
 * French spreadsheet reads as a date and time (« CSV pour Excel »).
 */
export function frenchNumericDateTime(date: Date): string {
  return NUMERIC.format(date).replace(',', '');
}

/** A duration as the team reads it: « 3 h 20 », « 40 min » (no-break spaces, as above). */
export function frenchDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  return hours
    ? `${hours}\u00a0h\u00a0${String(minutes % 60).padStart(2, '0')}`
    : `${minutes}\u00a0min`;
}

/** French agreement: singular for 0 and 1 (« 0 demande », « 1 demande »), plural from 2. */
export function frenchPlural(count: number, one: string, many: string): string {
  return count > 1 ? many : one;
}
