/**
 * What a person reads next to a form field the server or the browser refused, in plain French
 * (docs/site.md, "Form errors"). One source: the server writes them into a re-rendered form page,
 * the build puts them on each <form> as data-error-* attributes for forms.js. `{count}`, `{limit}`
 * and `{excess}` are filled in where they appear. A no-break space before : and ; keeps French
 * typography (src/features/site/typeset.ts), as in src/kernel/schemas/questionnaires.ts.
 */
import { frenchNumber } from './french-text.ts';

export const FORM_MESSAGES = {
  missing: 'Ce champ est obligatoire\u00a0: remplissez-le pour que nous puissions vous répondre.',
  choice: 'Cochez au moins une case\u00a0; si vous hésitez, cochez-les toutes.',
  consent: 'Cochez cette case pour pouvoir envoyer le formulaire.',
  email: 'Cette adresse e-mail semble incomplète\u00a0: elle doit ressembler à nom@domaine.fr.',
  tooLong:
    'Ce texte compte {count}\u00a0caractères pour {limit} au plus\u00a0: raccourcissez-le de {excess}\u00a0caractères. Rien n’a été coupé.',
  invalid: 'Cette valeur n’est pas acceptée\u00a0: vérifiez-la et corrigez-la.',
  summary:
    'Le formulaire n’a pas été envoyé\u00a0: corrigez les champs signalés, puis renvoyez-le.',
} as const;

/**
 * Why a whole form post was refused before it was read (413, 429), over the page a browser gets
 * back (docs/api-decisions.md, "Form errors"). The body was never read, so nothing typed can be put
 * back: the browser's Back button still holds it. `{seconds}` is the Retry-After value.
 */
export const FORM_REFUSALS = {
  tooLarge:
    'Votre demande n’a pas été envoyée\u00a0: elle dépasse la taille que nous acceptons. Raccourcissez les textes les plus longs, puis renvoyez-la. Le bouton Retour de votre navigateur vous rend ce que vous aviez écrit.',
  rateLimited:
    'Votre demande n’a pas été envoyée\u00a0: trop de demandes sont parties de votre connexion en peu de temps. Réessayez dans {seconds}\u00a0secondes. Le bouton Retour de votre navigateur vous rend ce que vous aviez écrit.',
  backToForm: 'Revenir au formulaire',
} as const;

export function rateLimitedMessage(seconds: string): string {
  return FORM_REFUSALS.rateLimited.replace('{seconds}', seconds);
}

export function tooLongMessage(count: number, limit: number): string {
  return FORM_MESSAGES.tooLong
    .replace('{count}', frenchNumber(count))
    .replace('{limit}', frenchNumber(limit))
    .replace('{excess}', frenchNumber(count - limit));
}
