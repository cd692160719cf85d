import type { Reference } from './agency.ts';
import type { Page, Sector } from './pages.ts';

/**
 * Which proof a page shows (docs/site.md, "Réalisations"): a sector page, a case study, a service
 * page show what matches their sector or service, never another sector's client (the builders'
 * page does not quote a lawyer); other pages take turns, so no one client is quoted everywhere.
 */
export interface Topic {
  sector?: Sector;
  service?: string;
}

export function topicOf(page: Page): Topic {
  const sector = page.sector ?? page.caseStudy?.sector;
  const service = page.path.startsWith('/services/') ? page.path.slice('/services/'.length) : '';
  return { ...(sector && { sector }), ...(service && { service }) };
}

/** A stable turn per page: the same page always shows the same proof. */
function turn(path: string, count: number): number {
  let sum = 0;
  for (const char of path) sum = (sum * 31 + char.charCodeAt(0)) >>> 0;
  return sum % count;
}

export interface Proven {
  sectors?: readonly string[] | undefined;
  services?: readonly string[] | undefined;
}

/** The best match for `page` among `items` (references or case studies), or none. */
export function matchFor<T>(
  page: Page,
  items: readonly T[],
  proves: (item: T) => Proven,
): T | undefined {
  if (!items.length) return undefined;
  const { sector, service } = topicOf(page);
  if (sector) return items.find((item) => proves(item).sectors?.includes(sector));
  if (service) {
    const matching = items.filter((item) => proves(item).services?.includes(service));
    if (matching.length) return matching[turn(page.path, matching.length)];
  }
  return items[turn(page.path, items.length)];
}

export const referenceProves = (reference: Reference): Proven => ({
  sectors: reference.sectors,
  services: reference.services,
});
