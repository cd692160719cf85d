/*
 * A count as a French person writes it (docs/workspace.md, « Sur un téléphone »): 0 and 1 take
 * the singular (« 0 prospect », « 1 prospect », « 2 prospects »), thousands are grouped (« 1 000 »).
 * The one count helper of every page, e-mail and command the team reads; the plural rule is
 * frenchPlural's (french-date.ts).
 */
import { frenchPlural } from './french-date.ts';

const NUMBER = new Intl.NumberFormat('fr-FR');

/** « 2 prospects », « 1 envoi non livré »: `plural` defaults to the singular with an s. */
export function frenchCount(count: number, singular: string, plural = `${singular}s`): string {
  return `${NUMBER.format(count)} ${frenchPlural(count, singular, plural)}`;
}
