import { leadName } from '../../kernel/lead/lead.ts';
import { channelOf, LEAD_CHANNEL_LABELS, type InboxEntry } from './lead-work.ts';
import type { LeadStatus } from '../../kernel/lead/lead-status.ts';
import { leadKindOf, textField } from '../../kernel/schemas/lead-kinds.ts';
import { oneLine } from '../../kernel/schemas/one-line.ts';
import { SECTOR_LABELS } from '../../kernel/schemas/questionnaires.ts';
import type { Sector } from '../../kernel/schemas/sectors.ts';

/** docs/workspace.md: what the team reads for each value the journal holds. */
export const KIND_LABELS: Record<string, string> = {
  contact: 'Contact',
  audit: 'Audit',
  subscribe: 'Lettre',
};

export const DELIVERY_LABELS: Record<LeadStatus, string> = {
  pending: 'En attente',
  failed: 'En échec, nouvel essai prévu',
  dead: 'Abandonnée',
  delivered: 'Livrée',
  refused: 'Refusée par le destinataire',
  spam: 'Retenue',
};

export function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

export function personName(entry: InboxEntry): string {
  return oneLine(leadName(entry.lead));
}

/** An audit's sector by its French name, or a contact's service. */
export function topicOf(entry: InboxEntry): string {
  const data = entry.lead.data as Record<string, unknown>;
  const sector = textField(data, 'sector');
  if (sector) return SECTOR_LABELS[sector as Sector] ?? oneLine(sector);
  return oneLine(textField(data, 'SERVICE') ?? '');
}

const EXCERPT_LENGTH = 90;

/**
 * The first words of what the person wrote (a contact's message, an audit's first answer), on one
 * line, cut at a word: what the list shows under the request (docs/workspace.md).
 */
export function excerptOf(entry: InboxEntry): string {
  const data = entry.lead.data as Record<string, unknown>;
  const questionnaire = leadKindOf(entry.lead.kind).questionnaire;
  const answers = questionnaire ? data[questionnaire.answers] : undefined;
  const text = oneLine(
    textField(data, 'DEMANDE') ??
      (answers && typeof answers === 'object' ? String(Object.values(answers)[0] ?? '') : ''),
  );
  if (text.length <= EXCERPT_LENGTH) return text;
  const cut = text.slice(0, EXCERPT_LENGTH);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 40 ? cut.lastIndexOf(' ') : EXCERPT_LENGTH)}…`;
}

export function channelLabel(entry: InboxEntry): string {
  return LEAD_CHANNEL_LABELS[channelOf(entry.lead.consent?.channel)];
}
