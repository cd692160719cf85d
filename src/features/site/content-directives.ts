import { apiEndpoints } from '../../kernel/schemas/api-endpoints.ts';
import {
  endpointCount,
  LEAD_KINDS,
  type LeadKindDescriptor,
} from '../../kernel/schemas/lead-kinds.ts';
import {
  SECTOR_DESCRIPTORS,
  sectorCount,
  sectorLines,
  sectorLinks,
  sectorNames,
  type SectorDescriptor,
} from '../../kernel/schemas/sector-descriptors.ts';
import { slugify } from './markdown.ts';

/** What the lists and counts of the site's pages are derived from (docs/site.md, « Derived lists »). */
export interface ContentRegistry {
  sectors: readonly SectorDescriptor[];
  kinds: readonly LeadKindDescriptor[];
}

export const REGISTRY: ContentRegistry = { sectors: SECTOR_DESCRIPTORS, kinds: LEAD_KINDS };

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * The `{{…}}` a page's Markdown (front matter included) may hold where it counts or lists sectors
 * or endpoints: written by hand, such a list goes stale when a sector or an endpoint is added, and
 * test/architecture/fourth-sector.test.ts fails. `{{Api.nombre}}` capitalises the first letter.
 */
const DIRECTIVES: Record<string, (registry: ContentRegistry) => string> = {
  /** « trois » */
  'secteurs.nombre': ({ sectors }) => sectorCount(sectors),
  /** « [avocats](/secteurs/avocats), [boutiques](/secteurs/boutiques) ou [BTP](/secteurs/btp) » */
  'secteurs.liens': ({ sectors }) => sectorLinks(sectors),
  /** « avocats, boutiques et BTP » */
  'secteurs.noms': ({ sectors }) => sectorNames(sectors),
  /** One line a sector: its label linked to its page, what the agency does for that trade. */
  'secteurs.pour-qui': ({ sectors }) => sectorLines(sectors, (sector) => sector.forWhom),
  /** One line a sector: its label linked to its page, what its audit looks at. */
  'secteurs.audits': ({ sectors }) => sectorLines(sectors, (sector) => sector.auditChecks),
  /** « quatre points d’accès » (the privacy request included) */
  'api.nombre': ({ kinds }) => endpointCount(apiEndpoints(kinds)),
  /** One line an endpoint: its path, linked to its section of /developers' reference, and its summary. */
  'api.liste': ({ kinds }) =>
    apiEndpoints(kinds)
      .map(
        (endpoint) =>
          `- **[\`${endpoint.path}\`](/developers#${slugify(`POST ${endpoint.path}`)})** : ${lowerFirst(endpoint.summary)}.`,
      )
      .join('\n'),
};

/** `raw` with each directive replaced; an unknown one stops the build, naming the file. */
export function expandDirectives(
  raw: string,
  source: string,
  registry: ContentRegistry = REGISTRY,
): string {
  return raw.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_match, name: string) => {
    const directive = DIRECTIVES[lowerFirst(name)];
    if (!directive) {
      throw new Error(
        `${source}: {{${name}}} n’est pas une liste connue (${Object.keys(DIRECTIVES).join(', ')})`,
      );
    }
    const text = directive(registry);
    return name === lowerFirst(name) ? text : text.charAt(0).toUpperCase() + text.slice(1);
  });
}
