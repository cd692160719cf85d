import { emailOf, type Lead } from '../domain/lead.ts';
import { escapeHtml, type MailMessage, type MailSettings } from './mail-message.ts';

/** The signed links of one subscription (src/domain/newsletter-links.ts). */
export interface OptInLinks {
  confirmUrl: string;
  unsubscribeUrl: string;
}

/*
 * docs/consent.md, "Double opt-in": the e-mail that asks the person to confirm a subscription. Like
 * the contact confirmation it goes to an address nobody has verified yet, so it echoes nothing the
 * subscriber typed (not even the first name): a form that mails strangers' words is a spam relay.
 */
export function doubleOptInEmail(
  lead: Lead,
  settings: MailSettings,
  links: OptInLinks,
): MailMessage {
  const intro = [
    'Bonjour,',
    '',
    'Quelqu’un, sans doute vous, a demandé à recevoir la newsletter de l’agence à cette adresse : un conseil concret par mois.',
    '',
    'Pour confirmer votre inscription, ouvrez ce lien (valable 7 jours) :',
  ];
  const ignore = [
    'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : sans confirmation, votre adresse n’est pas inscrite et ne recevra rien.',
    '',
    'Pour que cette adresse ne soit jamais inscrite :',
  ];
  const signature = ['L’équipe de l’agence'];
  const text = [
    ...intro,
    links.confirmUrl,
    '',
    ...ignore,
    links.unsubscribeUrl,
    '',
    ...signature,
    settings.siteUrl,
  ].join('\n');
  const paragraphs = (lines: string[]) =>
    lines
      .filter(Boolean)
      .map((line) => `<p>${escapeHtml(line)}</p>`)
      .join('');
  const link = (url: string, label: string) =>
    `<p><a href="${escapeHtml(url)}">${escapeHtml(label)}</a></p>`;
  const html = `<!doctype html><html lang="fr"><body>${[
    paragraphs(intro),
    link(links.confirmUrl, 'Confirmer mon inscription'),
    paragraphs(ignore),
    link(links.unsubscribeUrl, 'Ne jamais inscrire cette adresse'),
    paragraphs(signature),
    link(settings.siteUrl, settings.siteUrl),
  ].join('')}</body></html>`;
  return {
    role: 'optin',
    to: { name: '', address: emailOf(lead) },
    subject: 'Confirmez votre inscription à la newsletter',
    text,
    html,
    listUnsubscribe: links.unsubscribeUrl,
  };
}
