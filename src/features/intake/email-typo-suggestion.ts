import emailMisspelled, { all } from 'email-misspelled';

/*
 * docs/api-decisions.md, « Domaine mal tapé »: the one source of the suggestion, for the intake's
 * `email_typo` warning (email-typo.ts) and, bundled by the site build in front of forms.js as
 * `leadgateEmailTypo`, for « Vouliez-vous dire … ? » on the public forms (docs/site.md). It imports
 * nothing of ours: it runs in the browser as it is.
 */

/** Edits at most between the typed domain and a provider's (email-misspelled's own default). */
const MAX_MISSPELLED = 2;

// The big providers' domains (gmail.com, orange.fr…), email-misspelled's own list. A domain longer
// or shorter by more than MAX_MISSPELLED characters cannot be within that many edits: not compared.
const misspelled = emailMisspelled({
  domains: all,
  maxMisspelled: MAX_MISSPELLED,
  lengthDiffMax: MAX_MISSPELLED,
});

/**
 * Domains known to have no suggestion. For an address with one `@`, email-misspelled's answer
 * depends on its domain alone, and comparing a domain with each of the 289 providers' costs about
 * as much CPU as journaling the lead (docs/performance.md, « The accept path »): an agency's
 * senders write the same few domains again and again. Bounded: emptied when full.
 */
const withoutSuggestion = new Set<string>();
const REMEMBERED_DOMAINS = 10_000;

/** The address the person probably meant (a big provider's domain mistyped), or undefined. */
export function likelyAddress(address: string): string | undefined {
  const typed = address.trim();
  const domain = /^[^@<]*@([^@<]*)$/.exec(typed)?.[1];
  if (domain !== undefined && withoutSuggestion.has(domain)) return undefined;
  const [suggestion] = misspelled(typed);
  if (!suggestion && domain !== undefined) {
    if (withoutSuggestion.size >= REMEMBERED_DOMAINS) withoutSuggestion.clear();
    withoutSuggestion.add(domain);
  }
  return suggestion?.corrected;
}

/** « Vouliez-vous dire marie@gmail.com ? », a no-break space before the question mark. */
export function didYouMean(address: string): string {
  return `Vouliez-vous dire ${address}\u00a0?`;
}
