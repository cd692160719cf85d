import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Resource } from '@modelcontextprotocol/sdk/types.js';
import { readManifest } from '../http/site-files.ts';
import {
  questionnaireDocument,
  questionnairePath,
  SECTOR_LABELS,
} from '../schemas/questionnaires.ts';
import { SECTORS } from '../schemas/sectors.ts';

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

/** The services pages, in the Markdown the site publishes (only when the server serves the site). */
function services(siteUrl: string, siteDir: string | undefined): ReadableResource[] {
  if (!siteDir) return [];
  return readManifest(siteDir)
    .pages.filter((page) => page.path === '/services' || page.path.startsWith('/services/'))
    .map((page) => {
      const text = readFileSync(join(siteDir, page.markdown), 'utf8');
      const title = /^# (.+)$/m.exec(text)?.[1] ?? page.path;
      return {
        uri: `${siteUrl}${page.markdownPath}`,
        name: `service${page.path.slice('/services'.length).replaceAll('/', '-') || 's'}`,
        title,
        description: `Page ${page.path} du site, en Markdown. The agency's service page, in French.`,
        mimeType: 'text/markdown',
        read: () => text,
      };
    });
}

export function leadResources(siteUrl: string, siteDir: string | undefined): ReadableResource[] {
  return [...services(siteUrl, siteDir), ...questionnaires(siteUrl)];
}
