import { firstNameOf, type Lead } from '../../kernel/lead/lead.ts';
import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import { SECTOR_LABELS } from '../../kernel/schemas/questionnaires.ts';
import type { Sector } from '../../kernel/schemas/sectors.ts';
import { servedAgency, typesetText } from '../site/index.ts';

/** A template of site/agency.yaml (`mail.answers`, validated at build), its placeholders filled. */
export interface FilledTemplate {
  title: string;
  subject: string;
  text: string;
}

type Template = NonNullable<ReturnType<typeof servedAgency>['mail']['answers']>[number];

/** The audited sector of a lead whose kind has a questionnaire (spec 2.3); undefined otherwise. */
function sectorOf(lead: Lead): Sector | undefined {
  const field = leadKindOf(lead.kind).questionnaire?.sector;
  const value = field ? (lead.data as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value in SECTOR_LABELS ? (value as Sector) : undefined;
}

/**
 * `{service}`: the service the person asked for (the contact form's SERVICE, spec 2.1), or the
 * audit of their sector (spec 2.3), or « votre demande ».
 */
function serviceOf(lead: Lead): string {
  const sector = sectorOf(lead);
  if (sector) return `l’audit « ${SECTOR_LABELS[sector]} »`;
  const service = (lead.data as Record<string, unknown>).SERVICE;
  return typeof service === 'string' && service.trim() ? service.trim() : 'votre demande';
}

function applies(template: Template, lead: Lead): boolean {
  if (!(template.kinds as readonly string[]).includes(lead.kind)) return false;
  if (template.sectors && !template.sectors.includes(sectorOf(lead)!)) return false;
  if (!template.services) return true;
  const service = serviceOf(lead).toLocaleLowerCase('fr');
  return template.services.some((word) => service.includes(word.toLocaleLowerCase('fr')));
}

/**
 * The templates offered for this lead (docs/workspace.md, « Répondre »): the ones written for its
 * sector or service first, then the ones for its kind.
 */
export function answerTemplates(
  lead: Lead,
  templates: readonly Template[] = servedAgency().mail.answers ?? [],
  agencyName = servedAgency().name,
): FilledTemplate[] {
  const values: Record<string, string> = {
    prénom: firstNameOf(lead).trim() || 'Madame, Monsieur',
    service: serviceOf(lead),
    agence: agencyName,
  };
  // Typeset as the e-mails' texts are (src/features/site/mail-identity.ts), before the person's words.
  const fill = (text: string) =>
    typesetText(text).replace(/\{([\p{L}]+)\}/gu, (_, name: string) => values[name]!);
  const specific = (template: Template) => (template.sectors || template.services ? 0 : 1);
  return templates
    .filter((template) => applies(template, lead))
    .sort((a, b) => specific(a) - specific(b))
    .map((template) => ({
      title: template.title,
      subject: fill(template.subject),
      text: fill(template.text),
    }));
}
