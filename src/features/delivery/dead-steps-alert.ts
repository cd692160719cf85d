import { createHash } from 'node:crypto';
import { agencyAlert, leadBlocks, type AgencyAlert, type LeadUrl } from './alerts.ts';
import { destinationWords, plainCause, technicalWords } from './alert-words.ts';
import type { ClaimedStep } from '../../kernel/lead/deliveries.ts';
import { frenchPlural } from '../../kernel/lead/french-date.ts';
import { leadName } from '../../kernel/lead/lead.ts';
import type { MailBlock } from '../../kernel/mail/mail-blocks.ts';

/**
 * One alert for every batch of steps given up (docs/delivery.md, « Dead »): each lead by name with
 * a link to its page (where « Relancer » is), what failed in plain words and what to check. Never
 * one per attempt.
 */
export function deadStepsAlert(
  dead: readonly ClaimedStep[],
  mailPathFailing: boolean,
  leadUrl: LeadUrl,
): AgencyAlert {
  const names = dead.map((step) => `${step.leadId}/${step.destination}`).sort();
  const count = dead.length;
  const plural = (one: string, many: string) => frenchPlural(count, one, many);
  const destinations = [...new Set(dead.map((step) => step.destination))];
  const said = (step: ClaimedStep) => step.lastError ?? 'erreur inconnue';
  const blocks: MailBlock[] = [
    {
      kind: 'paragraph',
      text: `${count} ${plural('envoi n’a', 'envois n’ont')} pas pu partir après ${plural('plusieurs essais', 'plusieurs essais chacun')}. Les demandes restent enregistrées : rien n’est perdu.`,
    },
    { kind: 'heading', text: plural('Demande concernée', 'Demandes concernées') },
    ...leadBlocks(
      dead.map((step) => ({
        id: step.leadId,
        name: leadName(step.lead),
        receivedAt: step.lead.receivedAt,
        givenUp: true,
      })),
      leadUrl,
      (lead) => {
        const step = dead.find((each) => each.leadId === lead.id)!;
        return ` : ${destinationWords(step.destination).label} ${plainCause(said(step))}`;
      },
    ),
    { kind: 'heading', text: 'Ce qu’il faut vérifier' },
    ...destinations.map((destination): MailBlock => ({
      kind: 'paragraph',
      text: `Pour ${destinationWords(destination).label} : ${destinationWords(destination).check}.`,
    })),
    {
      kind: 'paragraph',
      text: 'Une fois la cause réparée, « Relancer » sur la fiche de la demande la transmet de nouveau.',
    },
    {
      kind: 'paragraph',
      small: true,
      text: `Réponse technique : ${dead.map((step) => `${step.destination}, ${step.attempts} essais : ${technicalWords(said(step))}`).join(' ; ')}`,
    },
  ];
  const first = leadName(dead[0]!.lead);
  return agencyAlert({
    id: `dead-${createHash('sha256').update(names.join('\n')).digest('hex').slice(0, 32)}`,
    subject: `${count} ${plural('envoi abandonné', 'envois abandonnés')} : ${first}${count > 1 ? ` et ${count - 1} ${frenchPlural(count - 1, 'autre', 'autres')}` : ''}`,
    title: plural('Un envoi abandonné', `${count} envois abandonnés`),
    blocks,
    mailPathFailing,
  });
}
