/**
 * Why a lead is journaled as `spam` (docs/api-decisions.md, "Bot trap"), stored in the journal's
 * `leads.spam_reason` column so the agency can list and review them (`spam release`):
 *
 * - `honeypot`: the hidden field a person never sees was filled;
 * - `too_fast`: sent sooner after its page was served than a person types (a person may, though:
 *   to be reviewed, never dropped);
 * - `token_forged`: a form token this service did not sign;
 * - `token_expired`: the page was served longer ago than FORM_TOKEN_MAX_AGE_HOURS;
 * - `token_replayed`: one served page posted more than FORM_TOKEN_MAX_POSTS times;
 * - `cap_reached`: kept for a cap that holds leads back for review.
 */
export const SPAM_REASONS = [
  'honeypot',
  'too_fast',
  'token_forged',
  'token_expired',
  'token_replayed',
  'cap_reached',
] as const;

export type SpamReason = (typeof SPAM_REASONS)[number];
