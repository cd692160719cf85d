import type { ClaimedStep } from '../domain/deliveries.ts';
import { emailOf } from '../domain/lead.ts';
import { escapeHtml, type MailMessage, type MailSettings } from './mail-message.ts';

/**
 * One e-mail to the agency for every batch of steps given up (docs/delivery.md): which lead, which
 * destination, why, and how to try again. Never one per attempt.
 */
export function deadLetterAlert(dead: readonly ClaimedStep[], settings: MailSettings): MailMessage {
  const lines = dead.map(
    (step) =>
      `${step.lead.receivedAt.toISOString()}  ${step.lead.kind}  ${emailOf(step.lead)}  réf. ${step.leadId}  ${step.destination} (${step.provider}), ${step.attempts} essai(s) : ${step.lastError ?? 'erreur inconnue'}`,
  );
  const intro = `${dead.length} envoi(s) abandonné(s) après de nombreux essais. Les demandes restent dans le journal ; « leadgate leads replay » les transmet à nouveau une fois la cause réparée.`;
  return {
    role: 'dead-letter-alert',
    to: { name: 'Agence', address: settings.agencyEmail },
    subject: `leadgate : ${dead.length} envoi(s) abandonné(s)`,
    text: [intro, '', ...lines].join('\n'),
    html: `<!doctype html><html lang="fr"><body><p>${escapeHtml(intro)}</p><ul>${lines
      .map((line) => `<li>${escapeHtml(line)}</li>`)
      .join('')}</ul></body></html>`,
  };
}
