import type { Page } from '../pages.ts';
import { SITE } from '../site-info.ts';

/**
 * schema.org data on the home page, for search engines and assistants. A JSON-LD block is data, not
 * script: browsers do not run it, so the CSP's script-src 'self' does not apply to it.
 */
export function structuredData(page: Page, siteUrl: string): string {
  if (page.path !== '/') return '';
  const data = {
    '@context': 'https://schema.org',
    '@type': 'ProfessionalService',
    name: SITE.name,
    description: SITE.summary,
    url: `${siteUrl}/`,
    areaServed: { '@type': 'Country', name: 'France' },
    knowsLanguage: 'fr',
    serviceType: [
      'Création de site sur mesure',
      'Fiche d’établissement Google',
      'Référencement local',
      'Visibilité dans les moteurs IA',
    ],
  };
  // "<" escaped so no text can close the element early.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<script type="application/ld+json">${json}</script>\n`;
}
