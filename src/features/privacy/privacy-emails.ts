import { frenchCount } from '../../kernel/lead/french-count.ts';
import type { PersonFile } from './journal.ts';
import { signature } from '../intake/index.ts';
import { fillText } from '../../kernel/mail/mail-identity.ts';
import { mailHtml, mailText, type MailPage } from '../../kernel/mail/mail-layout.ts';
import type { MailMessage, MailSettings } from '../../kernel/mail/mail-message.ts';
import { elided } from '../../kernel/schemas/french-text.ts';
import {
  PRIVACY_KIND_LABELS,
  PRIVACY_PAGE_PATH,
  type PrivacyKind,
} from '../../kernel/schemas/privacy-request.ts';
import { personReport } from './person-report.ts';

/** One privacy e-mail in the agency's layout (docs/emails.md): its header band, voice and footer. */
function privacyMessage(
  role: MailMessage['role'],
  address: string,
  page: MailPage,
  settings: MailSettings,
): MailMessage {
  const { identity, siteUrl } = settings;
  return {
    role,
    to: { name: '', address },
    subject: page.title,
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
  };
}

/*
 * docs/consent.md, "Requests about one's data": the e-mail that asks the person to confirm, the one
 * e-mail a person must trust to erase their data: the agency's layout and signature, the button
 * before the signature. It goes to an address nobody has verified, so it repeats nothing the caller
 * typed (not the message).
 */
export function privacyLinkEmail(
  address: string,
  kind: PrivacyKind,
  url: string,
  settings: MailSettings,
): MailMessage {
  const { identity } = settings;
  return privacyMessage(
    'privacy-link',
    address,
    {
      title: 'Confirmez votre demande sur vos données',
      preview: `Un clic pour confirmer : ${PRIVACY_KIND_LABELS[kind]}.`,
      blocks: [
        { kind: 'paragraph', text: fillText(identity.texts.greeting.anonymous, identity) },
        {
          kind: 'paragraph',
          text: `Quelqu’un, vous-même ou un assistant agissant pour vous, a demandé ${elided('de', PRIVACY_KIND_LABELS[kind])} auprès de ${identity.agencyName}.`,
        },
        {
          kind: 'paragraph',
          text: 'Pour confirmer, appuyez sur le bouton ci-dessous, puis sur celui de la page qui s’ouvre. Le lien est valable 7 jours et ne sert qu’une fois.',
        },
        { kind: 'button', label: 'Confirmer ma demande', url },
        {
          kind: 'paragraph',
          small: true,
          text: 'Si vous n’êtes pas à l’origine de cette demande, ne faites rien : sans confirmation, rien n’est fait.',
        },
        signature(identity),
      ],
    },
    settings,
  );
}

/** RGPD art. 15: what the journal keeps of the address, as `leadgate people show` prints it. */
export function privacyAccessEmail(
  address: string,
  file: PersonFile,
  settings: MailSettings,
): MailMessage {
  const { identity, siteUrl } = settings;
  const count = file.leads.length;
  return privacyMessage(
    'privacy-answer',
    address,
    {
      title: 'Vos données : ce que nous gardons',
      blocks: [
        { kind: 'paragraph', text: fillText(identity.texts.greeting.anonymous, identity) },
        {
          kind: 'paragraph',
          text: `Voici tout ce que nous gardons de l’adresse ${address} : ${frenchCount(count, 'demande')}, avec la preuve de votre consentement et ce qui en dépend, tel que c’est enregistré.`,
        },
        { kind: 'heading', text: 'Ce que nous gardons' },
        { kind: 'paragraph', text: personReport(address, file) },
        {
          kind: 'paragraph',
          text: 'Pour tout effacer, faites une demande d’effacement depuis la page Vos données de notre site :',
          link: { label: 'Vos données', url: `${siteUrl}${PRIVACY_PAGE_PATH}` },
        },
        signature(identity),
      ],
    },
    settings,
  );
}
