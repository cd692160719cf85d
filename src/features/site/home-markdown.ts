import { AGENCY, postalAddressLine } from './agency.ts';
import { priceLines } from './prices.ts';
import { caseListMarkdown, type ShownCase } from './templates/case-study.ts';
import { HOME_HEADINGS } from './templates/proof.ts';

/**
 * What the home page shows around its text, for its Markdown copy (and so llms-full.txt): the case
 * studies, references, figures, team and prices of its cards and proof box, the contact card of its
 * footer, all from site/agency.yaml (docs/site.md, "Tarifs" and "Design").
 */
export function homeSectionsMarkdown(cases: readonly ShownCase[]): string {
  const { contact, legal, reviews } = AGENCY;
  const references = AGENCY.references.map(
    (reference) =>
      `- **${reference.url ? `[${reference.client}](${reference.url})` : reference.client}** (${reference.context}) : ${reference.result}`,
  );
  const figures = AGENCY.figures.map((figure) => `- **${figure.value}** ${figure.label}`);
  const reviewsLink = reviews ? `\n\n[${reviews.label}](${reviews.url})` : '';
  const team = AGENCY.team.map((person) => `- **${person.name}**, ${person.role} : ${person.bio}`);
  return [
    cases.length ? `## ${HOME_HEADINGS.cases}\n\n${caseListMarkdown(cases)}` : '',
    `## ${HOME_HEADINGS.references}\n\n${references.join('\n')}\n\n${figures.join('\n')}${reviewsLink}`,
    `## ${HOME_HEADINGS.team}\n\n${team.join('\n')}`,
    `## ${HOME_HEADINGS.prices}\n\n${priceLines(AGENCY.prices)}`,
    `## Nous joindre\n\n${AGENCY.name}, ${postalAddressLine(legal.address)}. Téléphone : [${contact.phoneDisplay}](tel:${contact.phone}), ${contact.hours}. E-mail : [${contact.email}](mailto:${contact.email}).`,
  ]
    .filter(Boolean)
    .join('\n\n');
}
