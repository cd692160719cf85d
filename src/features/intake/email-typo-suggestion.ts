import emailMisspelled, { all } from 'email-misspelled';

/*
 * docs/api-decisions.md, « Domaine mal tapé »: the one source of the suggestion, for the intake's
 * `email_typo` warning (email-typo.ts) and, bundled by the site build in front of forms.js as
 * `leadgateEmailTypo`, for « Vouliez-vous dire … ? » on the public forms (docs/site.md). It imports
 * nothing of ours: it runs in the browser as it is.
 */

// The big providers' domains (gmail.com, orange.fr…), email-misspelled's own list.
const misspelled = emailMisspelled({ domains: all });

/** The address the person probably meant (a big provider's domain mistyped), or undefined. */
export function likelyAddress(address: string): string | undefined {
  const [suggestion] = misspelled(address.trim());
  return suggestion?.corrected;
}

/** « Vouliez-vous dire marie@gmail.com ? », a no-break space before the question mark. */
export function didYouMean(address: string): string {
  return `Vouliez-vous dire ${address}\u00a0?`;
}
