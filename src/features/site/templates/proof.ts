import { AGENCY, type Reference } from '../agency.ts';
import { imageTag, type ResponsiveImage } from '../images-pipeline.ts';
import type { Page } from '../pages.ts';
import { matchFor, referenceProves } from '../proof-match.ts';
import { escapeHtml } from './html.ts';
import { caseCard, caseCards, type ShownCase } from './case-study.ts';
import { pageIllustration } from './illustrations.ts';

/** What the proof blocks show, resolved once per build (pictures resized, case studies read). */
export interface ProofContext {
  cases: readonly ShownCase[];
  /** A reference's screenshot, by its index in the identity file. */
  referenceShots: ReadonlyMap<number, ResponsiveImage>;
  /** A team member's photo, by index. */
  teamPhotos: ReadonlyMap<number, ResponsiveImage>;
}

export interface CallToAction {
  path: string;
  label: string;
}

/** Under the title: the page's summary, its call to action (none on a page whose form is below), its picture. */
export function hero(page: Page, cta: CallToAction | undefined, illustration?: string): string {
  const button = cta
    ? `<p class="cta"><a class="button" href="${escapeHtml(cta.path)}">${escapeHtml(cta.label)}</a> <a class="phone" href="tel:${escapeHtml(AGENCY.contact.phone)}">ou appelez le ${escapeHtml(AGENCY.contact.phoneDisplay)}</a></p>`
    : '';
  const lead = `<p class="lead">${escapeHtml(page.description)}</p>`;
  const intro = illustration
    ? `<div class="intro">${lead}${pageIllustration(illustration)}</div>`
    : lead;
  return `${intro}\n${button}`;
}

function reviewsLink(): string {
  const { reviews } = AGENCY;
  return reviews
    ? `<p><a href="${escapeHtml(reviews.url)}">${escapeHtml(reviews.label)}</a></p>`
    : '';
}

function quote(reference: Reference | undefined): string {
  return reference
    ? `<p class="reference"><strong>${escapeHtml(reference.client)}</strong>, ${escapeHtml(reference.context)} : ${escapeHtml(reference.result)}</p>`
    : '';
}

/**
 * Beside the text on a wide screen, after it on a phone: figures, the reference and the case study
 * that match the page (src/features/site/proof-match.ts), who answers.
 */
export function proofAside(page: Page, proof: ProofContext): string {
  const figures = AGENCY.figures
    .map(
      (figure) =>
        `<li><strong>${escapeHtml(figure.value)}</strong> ${escapeHtml(figure.label)}</li>`,
    )
    .join('');
  const reference = matchFor(page, AGENCY.references, referenceProves);
  const others = proof.cases.filter((shown) => shown.path !== page.path);
  const shown = matchFor(page, others, (item) => ({
    sectors: [item.caseStudy.sector],
    services: item.caseStudy.services,
  }));
  const caseBlock = shown
    ? `<ul class="cards case-cards">${caseCard(shown, 3, '(min-width: 64rem) 17rem, 92vw')}</ul>`
    : '';
  const team = AGENCY.team.map((person) => escapeHtml(person.name)).join(', ');
  return `<aside class="proof" aria-label="Pourquoi nous faire confiance">
<h2>Pourquoi nous faire confiance</h2>
<ul class="figures">${figures}</ul>
${reviewsLink()}
${quote(reference)}
${caseBlock}
<p>Votre interlocuteur : ${team}. <a href="tel:${escapeHtml(AGENCY.contact.phone)}">${escapeHtml(AGENCY.contact.phoneDisplay)}</a>, ${escapeHtml(AGENCY.contact.hours)}.</p>
</aside>`;
}

/**
 * The home page's sections, in its HTML (cards) and its Markdown copy
 * (src/features/site/home-markdown.ts).
 */
export const HOME_HEADINGS = {
  cases: 'Nos réalisations',
  references: 'Ils nous ont confié leur visibilité',
  team: 'L’équipe qui vous répond',
  prices: 'Nos tarifs indicatifs',
} as const;

/** The home page's proof: the case studies, every reference, the team and the price ranges. */
export function proofSections(page: Page, proof: ProofContext): string {
  if (page.path !== '/') return '';
  const cases = proof.cases.length
    ? `<h2 id="realisations-titre">${HOME_HEADINGS.cases}</h2>
${caseCards(proof.cases, 3)}
<p><a href="/realisations">Toutes nos réalisations</a></p>`
    : '';
  const references = AGENCY.references
    .map((reference, index) => {
      const shot = proof.referenceShots.get(index);
      const picture = shot
        ? imageTag(
            shot,
            { sizes: '(min-width: 40rem) 20rem, 92vw', className: 'case-shot' },
            escapeHtml,
          )
        : '';
      const client = reference.url
        ? `<a href="${escapeHtml(reference.url)}">${escapeHtml(reference.client)}</a>`
        : escapeHtml(reference.client);
      return `<li class="card">${picture}<h3>${client}</h3><p class="muted">${escapeHtml(reference.context)}</p><p>${escapeHtml(reference.result)}</p></li>`;
    })
    .join('');
  const team = AGENCY.team
    .map((person, index) => {
      const photo = proof.teamPhotos.get(index);
      const picture = photo
        ? imageTag(photo, { sizes: '8rem', className: 'team-photo' }, escapeHtml)
        : '';
      return `<li class="card">${picture}<h3>${escapeHtml(person.name)}</h3><p class="muted">${escapeHtml(person.role)}</p><p>${escapeHtml(person.bio)}</p></li>`;
    })
    .join('');
  const prices = AGENCY.prices
    .map(
      (range) =>
        `<li class="card"><h3>${escapeHtml(range.service)}</h3><p class="price">${escapeHtml(range.price)}</p><p>${escapeHtml(range.includes)}</p></li>`,
    )
    .join('');
  return `<section id="preuves" aria-labelledby="preuves-titre">
${cases}
<h2 id="preuves-titre">${HOME_HEADINGS.references}</h2>
<ul class="cards">${references}</ul>
${reviewsLink()}
<h2>${HOME_HEADINGS.team}</h2>
<ul class="cards">${team}</ul>
<h2>${HOME_HEADINGS.prices}</h2>
<ul class="cards">${prices}</ul>
</section>`;
}
