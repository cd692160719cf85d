import { AGENCY } from '../agency.ts';
import type { Page } from '../pages.ts';

/**
 * schema.org data on the home page, for search engines and assistants, from site/agency.yaml. A
 * JSON-LD block is data, not script: browsers do not run it, so the CSP's script-src 'self' does
 * not apply to it.
 */
export function structuredData(page: Page, siteUrl: string): string {
  if (page.path !== '/') return '';
  const { legal, contact } = AGENCY;
  const data = {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    name: AGENCY.name,
    legalName: legal.companyName,
    description: AGENCY.summary,
    url: `${siteUrl}/`,
    email: contact.email,
    telephone: contact.phone,
    // schema.org reads SIRET as the French "identifiant" of an establishment.
    identifier: { '@type': 'PropertyValue', propertyID: 'SIRET', value: legal.siret },
    vatID: legal.vatNumber,
    address: {
      '@type': 'PostalAddress',
      streetAddress: legal.address.street,
      postalCode: legal.address.postalCode,
      addressLocality: legal.address.locality,
      addressCountry: 'FR',
    },
    areaServed: { '@type': 'Country', name: 'France' },
    knowsLanguage: 'fr',
    employee: AGENCY.team.map((person) => ({
      '@type': 'Person',
      name: person.name,
      jobTitle: person.role,
    })),
    hasOfferCatalog: {
      '@type': 'OfferCatalog',
      name: 'Tarifs indicatifs',
      itemListElement: AGENCY.prices.map((range) => ({
        '@type': 'Offer',
        name: range.service,
        description: `${range.price} : ${range.includes}`,
      })),
    },
  };
  // "<" escaped so no text can close the element early.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<script type="application/ld+json">${json}</script>\n`;
}
