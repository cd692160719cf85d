/*
 * A count as a French person writes it (docs/workspace.md, « Le français partout »): 0 and 1 take
 * the singular (« 0 prospect », « 1 prospect », « 2 prospects »), thousands are grouped (« 1 000 »).
 * The one plural helper of every page, e-mail and command the team reads.
 */
const PLURAL = new Intl.PluralRules('fr-FR');
const NUMBER = new Intl.NumberFormat('fr-FR');

/** « 2 prospects », « 1 envoi non livré »: `plural` defaults to the singular with an s. */
export function frenchCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${NUMBER.format(count)} ${PLURAL.select(count) === 'one' ? singular : plural}`;
}
