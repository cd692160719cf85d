const NBSP = '\u00a0';

/**
 * French typography on the text a person reads: the typographic apostrophe, a no-break space
 * before ; : ! ? » and after « (the spacing src/kernel/schemas/questionnaires.ts writes by hand),
 * and none between a number and its unit ("24 heures", "5 000 €"). `&#39;` is how our escaping
 * writes an apostrophe.
 */
export function typesetText(text: string): string {
  return text
    .replace(/(\p{L})(?:'|&#39;)(?=\p{L})/gu, '$1’')
    .replace(/« /g, `«${NBSP}`)
    .replace(/ (?=[;:!?»])/g, NBSP)
    .replace(
      /(\d) (?=(heures?|h|jours?|mois|ans|minutes?|secondes?|caractères|Ko|Mo)\b|€|%)/g,
      `$1${NBSP}`,
    )
    .replace(/(\d) (?=\d{3}\b)/g, `$1${NBSP}`);
}

/** What typesetting never touches: tags (attribute values), code, scripts, and what a person typed. */
const UNTOUCHED =
  /(<(pre|code|script|style|textarea)\b[^>]*>[\s\S]*?<\/\2>|<!--[\s\S]*?-->|<[^>]+>)/;

/**
 * Typesets every text node of a page (templates, content, forms alike); wide tables scroll in their
 * own keyboard-reachable region instead of breaking words letter by letter.
 */
export function typeset(html: string): string {
  const parts = html.split(UNTOUCHED);
  // split() also returns each match's inner group: a part is text only at positions 0, 3, 6…
  const text = parts
    .map((part, index) => (index % 3 === 0 ? typesetText(part) : index % 3 === 1 ? part : ''))
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
