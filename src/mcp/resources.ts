import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { readManifest } from '../kernel/http/site/site-files.ts';
import {
  questionnaireDocument,
  questionnairePath,
  SECTOR_LABELS,
} from '../kernel/schemas/questionnaires.ts';
import { SECTORS } from '../kernel/schemas/sectors.ts';

export interface ReadableResource extends Resource {
  read(): string;
}

/** Each sector's questionnaire, the very document published at /secteurs/<sector>.json. */
function questionnaires(siteUrl: string): ReadableResource[] {
  return SECTORS.map((sector) => ({
    uri: `${siteUrl}${questionnairePath(sector)}`,
    name: `questionnaire-${sector}`,
    title: `Questionnaire d’audit : ${SECTOR_LABELS[sector]}`,
    description: `Les questions de l’audit ${sector} (texte exact, type de réponse, choix) pour formData de submit_sector_audit. The audit questions for the ${sector} sector: use their exact texts as formData keys.`,
    mimeType: 'application/json',
    read: () => JSON.stringify(questionnaireDocument(sector, siteUrl), null, 2),
  }));
}

/**
 * The site's pages of facts an assistant is asked about: what each page answers (French, then
 * English). The services pages are matched by path, below.
 */
const FACT_PAGES: Record<string, string> = {
  '/tarifs':
    'Les tarifs indicatifs de l’agence : chaque service, le diagnostic et l’audit par secteur. The agency’s prices, in French.',
  '/politique-de-confidentialite':
    'La politique de confidentialité : données collectées, finalités, durée de conservation, destinataires, droits et comment les exercer. The privacy notice, in French.',
  '/mentions-legales':
    'Les mentions légales : éditeur du site, directeur de la publication, hébergeur, coordonnées. The legal notice (publisher, host, contact), in French.',
};

const isServicePage = (path: string) => path === '/services' || path.startsWith('/services/');

/**
 * The services pages and the pages of facts, in the Markdown the site publishes (only when the
 * server serves the site): the very text of the HTML pages, prices included (docs/agents.md).
 */
function sitePages(siteUrl: string, siteDir: string | undefined): ReadableResource[] {
  if (!siteDir) return [];
  return readManifest(siteDir)
    .pages.filter((page) => isServicePage(page.path) || page.path in FACT_PAGES)
    .map((page) => {
      const text = readFileSync(join(siteDir, page.markdown), 'utf8');
      const title = /^# (.+)$/m.exec(text)?.[1] ?? page.path;
      const service = isServicePage(page.path);
      return {
        uri: `${siteUrl}${page.markdownPath}`,
        name: service
          ? `service${page.path.slice('/services'.length).replaceAll('/', '-') || 's'}`
          : page.path.slice(1),
        title,
        description: service
          ? `Page ${page.path} du site, en Markdown, avec son tarif. The agency's service page, in French.`
          : FACT_PAGES[page.path]!,
        mimeType: 'text/markdown',
        read: () => text,
      };
    });
}

export function leadResources(siteUrl: string, siteDir: string | undefined): ReadableResource[] {
  return [...sitePages(siteUrl, siteDir), ...questionnaires(siteUrl)];
}
