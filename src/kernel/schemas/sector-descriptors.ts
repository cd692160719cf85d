import { frenchAlternatives, frenchList, inFrenchWords } from './french-text.ts';
import { QUESTIONNAIRES, SECTOR_LABELS, type AuditQuestion } from './questionnaires.ts';
import { SECTORS, type Sector } from './sectors.ts';

/**
 * What the site, the API and the MCP server say of one sector of spec 2.3, in one place
 * (docs/architecture.md, « How to add a sector »): the lists and counts of sectors in the pages
 * (through the Markdown directives of src/features/site/content-directives.ts), llms.txt, the audit endpoint's
 * description and its MCP tool are derived from these; test/architecture/fourth-sector.test.ts
 * adds one and checks that every one of them names it.
 */
export interface SectorDescriptor {
  /** The `sector` value of AuditRequest, and the page /secteurs/<sector>. */
  sector: string;
  /** Who the audit is for, as the sector's page names them. */
  label: string;
  /** The link's text in running prose: « [BTP](/secteurs/btp) ». */
  name: string;
  /** What the agency does for this trade (the home page's « Pour qui », llms.txt). */
  forWhom: string;
  /** What the sector's audit looks at (the /secteurs page, llms.txt). */
  auditChecks: string;
  questions: readonly AuditQuestion[];
}

const SECTOR_TEXTS: Record<Sector, Pick<SectorDescriptor, 'name' | 'forWhom' | 'auditChecks'>> = {
  avocats: {
    name: 'avocats',
    forWhom: 'une communication qui respecte les règles déontologiques de la profession',
    auditChecks:
      'domaines d’intervention, fiche Google du cabinet, avis, règles déontologiques sur la communication et le nom de domaine',
  },
  boutiques: {
    name: 'boutiques',
    forWhom: 'faire venir en magasin et vendre aussi en ligne',
    auditChecks:
      'horaires, fréquentation, produits visibles sur Google, vente en ligne et retrait en magasin, temps forts de l’année',
  },
  btp: {
    name: 'BTP',
    forWhom: 'être appelé sur sa zone d’intervention et mettre ses chantiers en valeur',
    auditChecks:
      'zone d’intervention, qualifications (RGE, Qualibat…), photos de chantiers, avis et demandes de devis',
  },
};

export const SECTOR_DESCRIPTORS: readonly SectorDescriptor[] = SECTORS.map((sector) => ({
  sector,
  label: SECTOR_LABELS[sector],
  questions: QUESTIONNAIRES[sector],
  ...SECTOR_TEXTS[sector],
}));

export function sectorPath(sector: SectorDescriptor): string {
  return `/secteurs/${sector.sector}`;
}

/** « trois » */
export function sectorCount(sectors: readonly SectorDescriptor[], capitalized = false): string {
  return inFrenchWords(sectors.length, { capitalized });
}

/** « `avocats`, `boutiques` ou `btp` »: the values `sector` takes. */
export function sectorValues(sectors: readonly SectorDescriptor[]): string {
  return frenchAlternatives(sectors.map(({ sector }) => `\`${sector}\``));
}

/** « [avocats](/secteurs/avocats), [boutiques](/secteurs/boutiques) ou [BTP](/secteurs/btp) » */
export function sectorLinks(sectors: readonly SectorDescriptor[]): string {
  return frenchAlternatives(sectors.map((sector) => `[${sector.name}](${sectorPath(sector)})`));
}

/** « avocats, boutiques et BTP » */
export function sectorNames(sectors: readonly SectorDescriptor[]): string {
  return frenchList(sectors.map(({ name }) => name));
}

/** One Markdown line a sector: its label linked to its page, then `text` of it. */
export function sectorLines(
  sectors: readonly SectorDescriptor[],
  text: (sector: SectorDescriptor) => string,
): string {
  return sectors
    .map((sector) => `- **[${sector.label}](${sectorPath(sector)})** : ${text(sector)}.`)
    .join('\n');
}
