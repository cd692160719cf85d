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
