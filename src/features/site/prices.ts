import { AGENCY, IdentityFileError, type PriceRange } from './agency.ts';
import { identityFileName } from './identity-check.ts';
import type { Page } from './pages.ts';

/**
 * Prices where people look (docs/site.md, "Tarifs"): every price of site/agency.yaml on /tarifs and
 * the home page; on a service page, its service's; on a sector page, what its audit costs; on
 * /services and /secteurs, those of their pages. The same words in the HTML and the Markdown.
 */
export const PRICES_PATH = '/tarifs';

const SERVICES_PREFIX = '/services/';

function servicePageOf(page: Page): string | undefined {
  return page.path.startsWith(SERVICES_PREFIX)
    ? page.path.slice(SERVICES_PREFIX.length)
    : undefined;
}

/** The prices `page` states, in the identity file's order. */
export function pricesOf(page: Page, prices: readonly PriceRange[] = AGENCY.prices): PriceRange[] {
  const service = servicePageOf(page);
  const { sector } = page;
  if (page.path === PRICES_PATH) return [...prices];
  if (page.path === '/services') return prices.filter((range) => range.services?.length);
  if (page.path === '/secteurs') return prices.filter((range) => range.sectors?.length);
  if (sector) return prices.filter((range) => range.sectors?.includes(sector));
  if (service) return prices.filter((range) => range.services?.includes(service));
  return [];
}

/** "**Site sur mesure** : à partir de 2 400 € HT. Cinq à dix pages…" */
function priceLine(range: PriceRange): string {
  return `**${range.service}** : ${range.price.replace(/\.$/, '')}. ${range.includes}`;
}

/** One price as a sentence, several as a list. */
export function priceLines(prices: readonly PriceRange[]): string {
  if (prices.length === 1) return priceLine(prices[0]!);
  return prices.map((range) => `- ${priceLine(range)}`).join('\n');
}

/**
 * The page with its prices as a section before its first H2, just under its introduction: seen
 * without scrolling far, and in the Markdown copy since it is part of the body.
 */
export function withPrices(page: Page, pricesPage: boolean): Page {
  const prices = pricesOf(page);
  if (!prices.length) return page;
  const audit = page.sector !== undefined || page.path === '/secteurs';
  const heading = audit
    ? 'Ce que coûte l’audit'
    : prices.length > 1
      ? 'Tarifs indicatifs'
      : 'Tarif indicatif';
  const more =
    pricesPage && page.path !== PRICES_PATH ? `\n\n[Tous nos tarifs](${PRICES_PATH})` : '';
  const section = `## ${heading}\n\n${priceLines(prices)}${more}`;
  const first = page.body.search(/^## /m);
  const body =
    first === -1
      ? `${page.body}\n\n${section}`
      : `${page.body.slice(0, first)}${section}\n\n${page.body.slice(first)}`;
  return { ...page, body: body.trim() };
}

/**
 * Every service page has its price and every price's service page exists: checked at build, when
 * the pages are known (each sector's audit price is checked with the file,
 * src/features/site/agency.ts).
 */
export function checkServicePrices(
  pages: readonly Page[],
  prices: readonly PriceRange[] = AGENCY.prices,
): void {
  const file = identityFileName();
  const services = new Set(pages.map(servicePageOf).filter((service) => service !== undefined));
  prices.forEach((range, index) => {
    for (const service of range.services ?? []) {
      if (!services.has(service)) {
        throw new IdentityFileError(
          `${file} : prices[${index}].services : aucune page ${SERVICES_PREFIX}${service} dans site/content (faute de frappe ?)`,
        );
      }
    }
  });
  for (const service of services) {
    if (!prices.some((range) => range.services?.includes(service))) {
      throw new IdentityFileError(
        `${file} : prices : aucun tarif pour la page ${SERVICES_PREFIX}${service} : ajoutez « ${service} » aux services d’un tarif (« price: sur devis » si vous n’affichez pas de prix)`,
      );
    }
  }
}
