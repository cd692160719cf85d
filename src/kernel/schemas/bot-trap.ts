/*
 * The bot trap of the site's forms (docs/api-decisions.md, "Bot trap"): two fields every site form
 * carries and the server reads only from a form post (application/x-www-form-urlencoded), never from
 * JSON, so the API's strict bodies are unchanged. No lead schema may use these names.
 */

/** A text input a person never sees nor reaches; a bot filling every input fills it. */
export const HONEYPOT_FIELD = 'website';

/**
 * A hidden input holding the signed time the page was served
 * (src/features/intake/forms/bot-trap.ts).
 */
export const FORM_TOKEN_FIELD = 'form_token';

/** What the built pages hold in the token input; the server puts a signed time there as it serves. */
export const FORM_TOKEN_PLACEHOLDER = 'unsigned';
