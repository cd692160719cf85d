import { fileURLToPath } from 'node:url';
import { emailOf, type Lead } from '../../kernel/lead/lead.ts';
import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import type { AnswerWarning } from './audit-answers.ts';
import { didYouMean, likelyAddress } from './email-typo-suggestion.ts';

/** The suggestion's source file, which the site build bundles for the forms (docs/site.md). */
export const EMAIL_TYPO_SOURCE = fileURLToPath(
  new URL('./email-typo-suggestion.ts', import.meta.url),
);

/**
 * A likely typo of a big provider's domain (`gmial.com`, `orange.fe`): a warning, never a refusal
 * (the address may be real); the answer says the address the person probably meant.
 */
export function emailTypoWarnings(lead: Lead): AnswerWarning[] {
  const suggestion = likelyAddress(emailOf(lead));
  if (!suggestion) return [];
  return [
    {
      code: 'email_typo',
      message: `${didYouMean(suggestion)} L’adresse a été enregistrée telle quelle.`,
      field: leadKindOf(lead.kind).fields.email,
    },
  ];
}
