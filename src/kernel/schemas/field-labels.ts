import type { ConsentChannel } from './consent.ts';
import { type LeadKindDescriptor } from './lead-kinds.ts';
import { SECTOR_LABELS } from './questionnaires.ts';
import { SECTORS, type Sector } from './sectors.ts';

/*
 * What a person reads instead of the API's names (docs/emails.md): each field's French label is the
 * `title` of its schema (src/kernel/schemas/fields.ts), a sector its French name, a channel a
 * phrase.
 */

/** The French label of a field of `kind`'s schema; the field's own name only if it has none. */
export function fieldLabel(kind: LeadKindDescriptor, name: string): string {
  const property = (kind.schema.properties as Record<string, { title?: unknown } | undefined>)[
    name
  ];
  return typeof property?.title === 'string' ? property.title : name;
}

/** Every field of `kind`'s schema, in the schema's order, with its label. */
export function labelledFields(kind: LeadKindDescriptor): { name: string; label: string }[] {
  return Object.keys(kind.schema.properties).map((name) => ({
    name,
    label: fieldLabel(kind, name),
  }));
}

/** « Artisans et entreprises du BTP » for `btp`; a value that is no sector stays as sent. */
export function sectorLabel(value: string): string {
  return (SECTORS as readonly string[]).includes(value) ? SECTOR_LABELS[value as Sector] : value;
}

/** How the request reached the agency (docs/consent.md, channels), as the team says it. */
export const CHANNEL_LABELS: Record<ConsentChannel, string> = {
  form: 'formulaire du site',
  api: 'API (un programme)',
  agent: 'assistant IA agissant pour la personne (API ou WebMCP)',
  mcp: 'assistant IA via MCP',
};

/** An assistant sent it on the person's behalf: the e-mails say so (docs/emails.md). */
export function sentByAssistant(channel: ConsentChannel | undefined): boolean {
  return channel === 'agent' || channel === 'mcp';
}
