import type { PersonFile } from './journal.ts';
import { escapeHtml, type MailMessage, type MailSettings } from '../../kernel/mail/mail-message.ts';
import { PRIVACY_KIND_LABELS, type PrivacyKind } from '../../kernel/schemas/privacy-request.ts';
import { personReport } from './person-report.ts';

const html = (paragraphs: string[], link?: { url: string; label: string }) =>
  `<!doctype html><html lang="fr"><body>${paragraphs
    .filter(Boolean)
    .map((line) => `<p>${escapeHtml(line)}</p>`)
    .join('')}${
    link ? `<p><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></p>` : ''
  }</body></html>`;

/*
 * docs/consent.md, "Requests about one's data": the e-mail that asks the person to confirm. It goes
 * to an address nobody has verified, so it repeats nothing the caller typed (not the message).
 */
export function privacyLinkEmail(
  address: string,
  kind: PrivacyKind,
  url: string,
  settings: MailSettings,
): MailMessage {
  const lines = [
    'Bonjour,',
    `Quelqu’un, vous-même ou un assistant agissant pour vous, a demandé de ${PRIVACY_KIND_LABELS[kind]}.`,
    'Pour confirmer, ouvrez ce lien (valable 7 jours, une seule fois) puis appuyez sur le bouton :',
  ];
  const after = [
    'Si vous n’êtes pas à l’origine de cette demande, ne faites rien : sans confirmation, rien n’est fait.',
    'L’équipe de l’agence',
  ];
  return {
    role: 'privacy-link',
    to: { name: '', address },
    subject: 'Confirmez votre demande sur vos données',
    text: [...lines, url, '', ...after, settings.siteUrl].join('\n'),
    html: html([...lines, ...after], { url, label: 'Confirmer ma demande' }),
  };
}

/** RGPD art. 15: what the journal keeps of the address, as `leadgate people show` prints it. */
export function privacyAccessEmail(
  address: string,
  file: PersonFile,
  settings: MailSettings,
): MailMessage {
  const report = personReport(address, file);
  const lines = [
    'Bonjour,',
    `Voici tout ce que nous gardons de l’adresse ${address} : ${file.leads.length} demande(s), avec la preuve de votre consentement et ce qui en dépend, tel que c’est enregistré.`,
    'Pour tout effacer, faites une demande d’effacement depuis la page Vos données du site.',
  ];
  return {
    role: 'privacy-answer',
    to: { name: '', address },
    subject: 'Vos données : ce que nous gardons',
    text: [...lines, '', report, '', 'L’équipe de l’agence', settings.siteUrl].join('\n'),
    html: `${html(lines).replace('</body></html>', '')}<pre>${escapeHtml(report)}</pre></body></html>`,
  };
}
