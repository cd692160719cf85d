import { createHash } from 'node:crypto';
import type { AgencyAlert } from './alerts.ts';
import type { ClaimedStep } from '../../kernel/lead/deliveries.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { oneLine } from '../../kernel/schemas/one-line.ts';

/**
 * One alert for every batch of steps given up (docs/delivery.md, « Dead »): which lead, which
 * destination, why, and how to try again. Never one per attempt.
 */
export function deadStepsAlert(
  dead: readonly ClaimedStep[],
  mailPathFailing: boolean,
): AgencyAlert {
  const names = dead.map((step) => `${step.leadId}/${step.destination}`).sort();
  const lines = dead.map(
    (step) =>
      `${step.lead.receivedAt.toISOString()}  ${step.lead.kind}  ${oneLine(emailOf(step.lead))}  réf. ${step.leadId}  ${step.destination} (${step.provider}), ${step.attempts} essai(s) : ${oneLine(step.lastError ?? 'erreur inconnue')}`,
  );
  const intro = `${dead.length} envoi(s) abandonné(s) après de nombreux essais. Les demandes restent dans le journal ; « leadgate leads replay » les transmet à nouveau une fois la cause réparée.`;
  return {
    id: `dead-${createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 32)}`,
    subject: `leadgate : ${dead.length} envoi(s) abandonné(s)`,
    text: [intro, '', ...lines].join('\n'),
    mailPathFailing,
  };
}
