import emailMisspelled, { all } from 'email-misspelled';
import { emailOf, type Lead } from '../../kernel/lead/lead.ts';
import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import type { AnswerWarning } from './audit-answers.ts';

// docs/api-decisions.md, « Domaine mal tapé »: the big providers' domains (gmail.com, orange.fr…),
// email-misspelled's own list.
const misspelled = emailMisspelled({ domains: all });

/**
 * A likely typo of a big provider's domain (`gmial.com`, `orange.fe`): a warning, never a refusal
 * (the address may be real); the answer says the address the person probably meant.
 */
export function emailTypoWarnings(lead: Lead): AnswerWarning[] {
  const [suggestion] = misspelled(emailOf(lead));
  if (!suggestion) return [];
  return [
    {
      code: 'email_typo',
      message: `Vouliez-vous dire ${suggestion.corrected} ? L’adresse a été enregistrée telle quelle.`,
      field: leadKindOf(lead.kind).fields.email,
    },
  ];
}
