import { AGENCY } from '../agency.ts';
import type { Page } from '../pages.ts';
import { PRIMARY_CTA } from '../site-info.ts';
import { escapeHtml } from './html.ts';
import { pageIllustration } from './illustrations.ts';

/** Under the title: the page's summary, the primary call to action (not on its own page), its picture. */
export function hero(page: Page, illustration?: string): string {
  const cta =
    page.path === PRIMARY_CTA.path
      ? ''
      : `<p class="cta"><a class="button" href="${PRIMARY_CTA.path}">${escapeHtml(PRIMARY_CTA.label)}</a> <a class="phone" href="tel:${escapeHtml(AGENCY.contact.phone)}">ou appelez le ${escapeHtml(AGENCY.contact.phoneDisplay)}</a></p>`;
  const lead = `<p class="lead">${escapeHtml(page.description)}</p>`;
  const intro = illustration
    ? `<div class="intro">${lead}${pageIllustration(illustration)}</div>`
    : lead;
  return `${intro}\n${cta}`;
}

/** Beside the text on a wide screen, after it on a phone: figures, a reference, who answers. */
export function proofAside(): string {
  const figures = AGENCY.figures
    .map(
      (figure) =>
        `<li><strong>${escapeHtml(figure.value)}</strong> ${escapeHtml(figure.label)}</li>`,
    )
    .join('');
  const reference = AGENCY.references[0];
  const quote = reference
    ? `<p class="reference"><strong>${escapeHtml(reference.client)}</strong>, ${escapeHtml(reference.context)} : ${escapeHtml(reference.result)}</p>`
    : '';
  const team = AGENCY.team.map((person) => escapeHtml(person.name)).join(', ');
  return `<aside class="proof" aria-label="Pourquoi nous faire confiance">
<h2>Pourquoi nous faire confiance</h2>
<ul class="figures">${figures}</ul>
${quote}
<p>Votre interlocuteur : ${team}. <a href="tel:${escapeHtml(AGENCY.contact.phone)}">${escapeHtml(AGENCY.contact.phoneDisplay)}</a>, ${escapeHtml(AGENCY.contact.hours)}.</p>
</aside>`;
}

/** The home page's proof: every reference, the team and the price ranges, from site/agency.ts. */
export function proofSections(page: Page): string {
  if (page.path !== '/') return '';
  const references = AGENCY.references
    .map(
      (reference) =>
        `<li class="card"><h3>${escapeHtml(reference.client)}</h3><p class="muted">${escapeHtml(reference.context)}</p><p>${escapeHtml(reference.result)}</p></li>`,
    )
    .join('');
  const team = AGENCY.team
    .map(
      (person) =>
        `<li class="card"><h3>${escapeHtml(person.name)}</h3><p class="muted">${escapeHtml(person.role)}</p><p>${escapeHtml(person.bio)}</p></li>`,
    )
    .join('');
  const prices = AGENCY.prices
    .map(
      (range) =>
        `<li class="card"><h3>${escapeHtml(range.service)}</h3><p class="price">${escapeHtml(range.price)}</p><p>${escapeHtml(range.includes)}</p></li>`,
    )
    .join('');
  return `<section id="preuves" aria-labelledby="preuves-titre">
<h2 id="preuves-titre">Ils nous ont confié leur visibilité</h2>
<ul class="cards">${references}</ul>
<h2>L’équipe qui vous répond</h2>
<ul class="cards">${team}</ul>
<h2>Nos tarifs indicatifs</h2>
<ul class="cards">${prices}</ul>
</section>`;
}
