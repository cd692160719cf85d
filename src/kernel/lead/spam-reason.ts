/**
 * Why a lead is journaled as `spam` (docs/api-decisions.md, "Bot trap"), stored in the journal's
 * `leads.spam_reason` column so the agency can list and review them (`spam release`):
 *
 * - `honeypot`: the hidden field a person never sees was filled;
 * - `too_fast`: sent sooner after its page was served than a person types (a person may, though:
 *   to be reviewed, never dropped);
 * - `token_forged`: a form token this service did not sign;
 * - `token_expired`: the page was served longer ago than FORM_TOKEN_MAX_AGE_HOURS;
 * - `token_replayed`: one served page posted more than FORM_TOKEN_MAX_POSTS times.
 *
 * The confirmation caps (docs/reliability.md) hold back e-mails, never leads: a lead past a cap is
 * delivered to the agency without its confirmation, so no reason names them.
 */
export const SPAM_REASONS = [
  'honeypot',
  'too_fast',
  'token_forged',
  'token_expired',
  'token_replayed',
] as const;

export type SpamReason = (typeof SPAM_REASONS)[number];

/**
 * What the team reads for each reason (docs/workspace.md, « À vérifier »). `too_fast` says a person
 * may have sent it: autofill fills a form in a second, and such a post waits here to be released.
 */
export const SPAM_REASON_LABELS: Record<SpamReason, string> = {
  honeypot: 'Champ caché rempli (robot probable)',
  too_fast: 'Envoyée trop vite après l’ouverture de la page (peut-être une vraie personne)',
  token_forged: 'Jeton du formulaire falsifié',
  token_expired: 'Page ouverte depuis trop longtemps (jeton expiré)',
  token_replayed: 'Même page envoyée trop de fois (jeton réutilisé)',
};

/** A held lead journaled before the reason was kept has none. */
export function spamReasonLabel(reason: SpamReason | null): string {
  return reason ? SPAM_REASON_LABELS[reason] : 'Piège à robots (raison non enregistrée)';
}
