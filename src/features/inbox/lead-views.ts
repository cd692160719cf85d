import { leadName } from '../../kernel/lead/lead.ts';
import { channelOf, LEAD_CHANNEL_LABELS, type InboxEntry } from './lead-work.ts';
import type { LeadStatus } from '../../kernel/lead/lead-status.ts';
import { leadKindOf, textField, type LeadKind } from '../../kernel/schemas/lead-kinds.ts';
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

export function channelLabel(entry: InboxEntry): string {
  return LEAD_CHANNEL_LABELS[channelOf(entry.lead.consent?.channel)];
}

/** A label a person reads for a field: the first clause of its schema description (French). */
export function fieldLabel(kind: LeadKind, field: string): string {
  const schema = leadKindOf(kind).schema as {
    properties: Record<string, { description?: string }>;
  };
  const description = schema.properties[field]?.description;
  if (!description) return field;
  return description.split(/\.\s|\s;|,\s|\s\(/)[0]!.replace(/\.$/, '');
}
