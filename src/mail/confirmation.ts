import { emailOf, type Lead } from '../domain/lead.ts';
import { leadKindOf, type LeadKindDescriptor } from '../schemas/lead-kinds.ts';
import type { MailMessage, MailSettings } from './mail-message.ts';

/*
 * The confirmation goes to an address nobody has verified yet, so it echoes no text the sender typed
 * (not even the first name): a form that mails strangers' words to any address is a spam relay.
 */
export function confirmationEmail(
  lead: Lead,
  settings: MailSettings,
  kind: LeadKindDescriptor = leadKindOf(lead.kind),
): MailMessage {
  const subject = 'Nous avons bien reçu votre demande';
  const lines = [
    'Bonjour,',
    '',
    'Nous avons bien reçu votre demande et nous vous remercions de votre confiance.',
    'Une personne de l’équipe vous répond sous 24 heures ouvrées.',
    '',
    'Si vous n’êtes pas à l’origine de cette demande, ignorez simplement ce message.',
    '',
    'À très vite,',
    'L’équipe de l’agence',
    settings.siteUrl,
  ];
  const html = `<!doctype html><html lang="fr"><body>${lines
    .filter(Boolean)
    .map((line) => `<p>${line === settings.siteUrl ? `<a href="${line}">${line}</a>` : line}</p>`)
    .join('')}</body></html>`;
  return {
    role: 'confirmation',
    to: { name: '', address: emailOf(lead, kind) },
    subject,
    text: lines.join('\n'),
    html,
  };
}
