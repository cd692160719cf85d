import { emailOf, firstNameOf, type Lead } from '../../kernel/lead/lead.ts';
import { sentByAssistant } from '../../kernel/schemas/field-labels.ts';
import { leadKindOf, type LeadKindDescriptor } from '../../kernel/schemas/lead-kinds.ts';
import type { MailBlock } from '../../kernel/mail/mail-blocks.ts';
import { fillText, type MailIdentity } from '../../kernel/mail/mail-identity.ts';
import { mailHtml, mailText, type MailPage } from '../../kernel/mail/mail-layout.ts';
import type { MailMessage, MailSettings } from '../../kernel/mail/mail-message.ts';
import { harmlessText, senderRows } from './lead-summary.ts';

/** Where a person asks for their data to be deleted (the RGPD request page, docs/emails.md). */
export function privacyRequestUrl(siteUrl: string): string {
  return `${siteUrl}/vos-donnees`;
}

/**
 * « Bonjour Marie, » when the first name is a name (letters, at most 40 characters: see
 * lead-summary.ts on what a stranger's text may be repeated), « Bonjour, » otherwise.
 */
export function greeting(firstName: string, identity: MailIdentity): string {
  const name = harmlessText(firstName, 40);
  const { named, anonymous } = identity.texts.greeting;
  return name ? fillText(named, identity, { prénom: name }) : fillText(anonymous, identity);
}

/** The signature block: the closing, the identity's signature lines. */
export function signature(identity: MailIdentity): MailBlock {
  return {
    kind: 'signature',
    lines: [identity.texts.closing, ...identity.texts.signature].map((line) =>
      fillText(line, identity),
    ),
  };
}

/**
 * The e-mail a person gets when their request is journaled (spec 1 and 6; docs/emails.md): what was
 * received, who sent it (the person, or an assistant on their behalf), what happens next and when,
 * and how to have it deleted. It repeats only harmless text (lead-summary.ts): it goes to an
 * address nobody has verified yet.
 */
export function confirmationEmail(
  lead: Lead,
  settings: MailSettings,
  kind: LeadKindDescriptor = leadKindOf(lead.kind),
): MailMessage {
  const { identity, siteUrl } = settings;
  const texts = identity.texts.confirmation;
  const channel = lead.consent?.channel;
  const sender = sentByAssistant(channel)
    ? 'Cette demande nous a été envoyée par un assistant IA agissant pour vous, avec votre accord.'
    : channel === 'api'
      ? 'Cette demande nous a été transmise pour vous par un programme, avec votre accord.'
      : 'Vous nous avez écrit depuis le formulaire de notre site.';
  const page: MailPage = {
    title: fillText(texts.subject, identity),
    preview: fillText(texts.nextSteps, identity),
    blocks: [
      { kind: 'paragraph', text: greeting(firstNameOf(lead, kind), identity) },
      { kind: 'paragraph', text: `${fillText(texts.thanks, identity)} ${sender}` },
      { kind: 'heading', text: 'Ce que nous avons reçu' },
      { kind: 'fields', rows: senderRows(lead, kind) },
      {
        kind: 'paragraph',
        small: true,
        text: 'Par prudence, cet e-mail ne recopie pas les textes longs ni les liens : il part vers une adresse que nous n’avons pas encore vérifiée. L’équipe a bien tout en main.',
      },
      { kind: 'heading', text: 'Et maintenant ?' },
      { kind: 'paragraph', text: fillText(texts.nextSteps, identity) },
      { kind: 'paragraph', text: fillText(texts.reply, identity) },
      signature(identity),
      { kind: 'heading', text: 'Ce n’est pas vous ?' },
      {
        kind: 'paragraph',
        small: true,
        text: 'Si vous n’êtes pas à l’origine de cette demande, ou si vous voulez qu’elle soit effacée, dites-le-nous sur cette page : nous supprimons la demande et tout ce qui vous concerne.',
        link: { label: 'Faire effacer mes données', url: privacyRequestUrl(siteUrl) },
      },
    ],
  };
  return {
    role: 'confirmation',
    to: { name: '', address: emailOf(lead, kind) },
    // docs/emails.md: a reply (« une précision à ajouter ») reaches the team, at AGENCY_EMAIL.
    replyTo: { name: identity.agencyName, address: settings.agencyEmail },
    subject: page.title,
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
  };
}
