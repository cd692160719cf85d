const NBSP = '\u00a0';

/**
 * French typography on rendered page text (never inside tags, never in code): no line break
 * inside « … » or between a number and its unit ("24 heures", "5 000 €"); wide tables scroll in
 * their own keyboard-reachable region instead of breaking words letter by letter.
 */
export function typeset(html: string): string {
  const text = html
    .split(/(<pre[\s\S]*?<\/pre>|<code>[\s\S]*?<\/code>|<[^>]+>)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/« /g, `«${NBSP}`)
            .replace(/ »/g, `${NBSP}»`)
            .replace(
              /(\d) (?=(heures?|h|jours?|mois|ans|minutes?|secondes?|caractères|Ko|Mo)\b|€|%)/g,
              `$1${NBSP}`,
            )
            .replace(/(\d) (?=\d{3}\b)/g, `$1${NBSP}`),
    )
    .join('');
  let tables = 0;
  return text
    .replace(
      /<table>/g,
      () =>
        `<div class="table-scroll" role="region" tabindex="0" aria-label="Tableau ${++tables} (défile sur petit écran)"><table>`,
    )
    .replaceAll('</table>', '</table></div>');
}
