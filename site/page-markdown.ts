import { absoluteLinks, slugify } from './markdown.ts';
import type { Page } from './pages.ts';
import { canonicalUrl } from './templates/layout.ts';

/** The id markdown.ts gives the heading "POST /api/contact" of the /developers reference. */
export function endpointAnchor(path: string): string {
  return slugify(`POST ${path}`);
}

function apiLink(siteUrl: string, path: string): string {
  return `[POST ${path}](${siteUrl}/developers#${endpointAnchor(path)})`;
}

/** What an agent needs to send the page's form itself: endpoint, fields, and the questionnaire. */
function formSection(page: Page, siteUrl: string): string {
  const consent =
    'Un agent peut l’envoyer en JSON pour la personne qu’il aide, uniquement avec son accord explicite.';
  const parts: string[] = [];
  if (page.form === 'contact') {
    parts.push(
      `Le formulaire de cette page envoie ${apiLink(siteUrl, '/api/contact')} avec \`PRENOM\`, \`NOM\`, \`EMAIL\`, \`JOB_TITLE\`, \`TYPE_BESOIN\` (parmi \`Attirer\`, \`Engager\`, \`Convertir\`, séparés par des virgules), \`SERVICE\` et \`DEMANDE\` ; \`SMS\` et \`SMS__COUNTRY_CODE\` sont facultatifs. ${consent}`,
    );
  }
  if (page.form === 'diagnostic') {
    parts.push(
      `Le formulaire de cette page envoie ${apiLink(siteUrl, '/api/contact')} avec \`TOOL_SOURCE\` = \`diagnostic-gratuit\`, \`PRENOM\` et \`EMAIL\` (obligatoires), et au besoin \`JOB_TITLE\` (activité et ville) et \`DEMANDE\` (site ou fiche Google à examiner). ${consent}`,
    );
  }
  if (page.form === 'audit') {
    const questions = page.questions.map((item) =>
      item.choices
        ? `- ${item.question} (réponses proposées : ${item.choices.map((choice) => `« ${choice} »`).join(', ')})`
        : `- ${item.question}`,
    );
    parts.push(
      `Le questionnaire de cette page envoie ${apiLink(siteUrl, '/api/audit')} avec \`sector\` = \`${page.sector}\`, \`email\` et \`firstName\` (obligatoires), \`lastName\` et \`phone\` (facultatifs), et \`formData\` : un objet dont chaque clé est une question ci-dessous, mot pour mot, et chaque valeur la réponse. ${consent}`,
      questions.join('\n'),
    );
  }
  if (page.form === 'newsletter' || page.newsletter) {
    parts.push(
      `Inscription à la lettre mensuelle : ${apiLink(siteUrl, '/api/subscribe')} avec \`email\` et \`firstName\`. ${consent}`,
    );
  }
  return parts.length ? `## Envoyer ce formulaire par l’API\n\n${parts.join('\n\n')}` : '';
}

/**
 * A page for agents (issue 3): the content without navigation chrome, the title as H1, links
 * absolute on SITE_URL, and how to act on the page's form.
 */
export function pageMarkdown(page: Page, siteUrl: string): string {
  const url = canonicalUrl(siteUrl, page.path);
  return [
    `# ${page.title}`,
    `> ${page.description}`,
    absoluteLinks(page.body, siteUrl),
    formSection(page, siteUrl),
    page.path === '/404' ? '' : `---\n\nAdresse : ${url} · Mise à jour : ${page.updated}`,
  ]
    .filter(Boolean)
    .join('\n\n')
    .concat('\n');
}
