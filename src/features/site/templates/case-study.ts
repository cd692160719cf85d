import type { CaseStudy } from '../case-studies.ts';
import { imageTag, type ResponsiveImage } from '../images-pipeline.ts';
import { SECTOR_LABELS } from '../../../kernel/schemas/questionnaires.ts';
import { escapeHtml } from './html.ts';

/**
 * A case study ready to show: its page, its facts, its screenshots resized
 * (src/features/site/images-pipeline.ts).
 */
export interface ShownCase {
  path: string;
  title: string;
  caseStudy: CaseStudy;
  screenshots: ResponsiveImage[];
}

/** The card's picture is at most a third of the wide layout, the whole width on a phone. */
const CARD_SIZES = '(min-width: 64rem) 16rem, (min-width: 40rem) 45vw, 92vw';

/** A card for the home page, the index and the proof box: picture, client, sector, the figure. */
export function caseCard(shown: ShownCase, level: number, sizes = CARD_SIZES): string {
  const { caseStudy } = shown;
  const picture = shown.screenshots[0]
    ? imageTag(shown.screenshots[0], { sizes, className: 'case-shot' }, escapeHtml)
    : '';
  return `<li class="card case-card">${picture}<h${level}><a href="${escapeHtml(shown.path)}">${escapeHtml(caseStudy.client)}</a></h${level}><p class="muted">${escapeHtml(SECTOR_LABELS[caseStudy.sector])}</p><p><strong class="case-figure">${escapeHtml(caseStudy.figure.value)}</strong> ${escapeHtml(caseStudy.figure.label)}</p></li>`;
}

export function caseCards(cases: readonly ShownCase[], level: number): string {
  return `<ul class="cards case-cards">${cases.map((shown) => caseCard(shown, level)).join('')}</ul>`;
}

/**
 * A case study's facts as Markdown, put before its written body: the HTML page and its Markdown copy
 * (agents, llms-full.txt) say the same thing. The service names link to their pages.
 */
export function caseStudyMarkdown(
  caseStudy: CaseStudy,
  serviceTitles: ReadonlyMap<string, string>,
): string {
  const services = caseStudy.services
    .map((slug) => {
      const title = serviceTitles.get(slug);
      return title ? `- [${title}](/services/${slug})` : `- ${slug}`;
    })
    .join('\n');
  const visit = caseStudy.url ? `\n\n[Voir le site de ${caseStudy.client}](${caseStudy.url})` : '';
  return `**${caseStudy.figure.value}** ${caseStudy.figure.label}.

Client : ${caseStudy.client} (${SECTOR_LABELS[caseStudy.sector]}).

## Le point de départ

${caseStudy.problem}

## Ce que nous avons fait

${caseStudy.done}

${services}${visit}`;
}

/** The screenshots under the text, lazy: they sit below the first screen. */
export function caseScreenshots(shown: ShownCase | undefined): string {
  if (!shown) return '';
  return shown.screenshots
    .map(
      (image) =>
        `<figure class="case-screenshot${image.height > image.width ? ' portrait' : ''}">${imageTag(image, { sizes: image.height > image.width ? '18rem' : '(min-width: 64rem) 46rem, 92vw' }, escapeHtml)}<figcaption>${escapeHtml(image.alt)}</figcaption></figure>`,
    )
    .join('\n');
}

/** The index's list in the Markdown copy (the HTML shows cards). */
export function caseListMarkdown(cases: readonly ShownCase[]): string {
  return cases
    .map(
      ({ path, caseStudy }) =>
        `- **[${caseStudy.client}](${path})** : ${caseStudy.figure.value} ${caseStudy.figure.label} (${SECTOR_LABELS[caseStudy.sector]})`,
    )
    .join('\n');
}
