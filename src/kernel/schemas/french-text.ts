/*
 * Written by hand rather than with Intl: the server's first `Intl.ListFormat('fr')` or
 * `toLocaleString('fr-FR')` loads ICU's locale data, 23 ms of a start and ~7 MB of resident memory
 * for two rules this small (docs/performance.md, "What a start loads"). The site's build uses the
 * same two, so a page and an API answer never write a list differently.
 */

/** 5000 → "5 000" (French thousands, narrow no-break space), for the counts a person reads. */
export function frenchNumber(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
}

/** ["a", "b", "c"] → "a, b et c". */
export function frenchList(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} et ${items[items.length - 1]}`;
}

/** Words that take the elided form before a vowel or a mute h (« de effacer » → « d’effacer »). */
const ELIDING = new Set(['de', 'le', 'la', 'que', 'je', 'me', 'te', 'se', 'ne', 'ce']);

/** A word starting with a vowel sound: a vowel, or an h that French elides before (« habitude »). */
const VOWEL_START = /^(?:[aeiouyàâäéèêëîïôöûüœæ]|h(?!a(?:che|ut|ie|rd)|ibou|ors|uit|éro))/i;

/** « de » + « effacer » → « d’effacer », « de » + « vous » → « de vous »: French elision. */
export function elided(word: string, next: string): string {
  return ELIDING.has(word.toLowerCase()) && VOWEL_START.test(next)
    ? `${word.slice(0, -1)}’${next}`
    : `${word} ${next}`;
}

/**
 * Where French text misses an elision: « de effacer », « le adresse », « que il »; site/ and e-mail
 * texts are checked with it (test/quality/french-elision.test.ts).
 */
export const MISSED_ELISION =
  /(?<![\p{L}'’-])(?:de|le|la|que|je|me|te|se|ne|ce|jusque|lorsque|puisque) (?:[aeiouyàâéèêîôûœ]|h(?:abit|eur|ist|omm|onn|ôt|umain))\p{L}*/giu;

/** ["a", "b", "c"] → "a, b ou c": a choice among the items. */
export function frenchAlternatives(items: readonly string[]): string {
  return items.length < 2
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} ou ${items[items.length - 1]}`;
}

const NUMBERS = ['aucun', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'];

/** A small count in French words ("trois"), for prose written around a list that may grow. */
export function inFrenchWords(count: number, { capitalized = false } = {}): string {
  const word = NUMBERS[count] ?? String(count);
  return capitalized ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

const ENGLISH_NUMBERS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/** The same in English words ("Four"), for the English half of the MCP descriptions. */
export function inEnglishWords(count: number): string {
  const word = ENGLISH_NUMBERS[count] ?? String(count);
  return word.charAt(0).toUpperCase() + word.slice(1);
}
