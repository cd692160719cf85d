import { emailOf, firstNameOf, type Lead } from '../../kernel/lead/lead.ts';
import { greeting, signature } from '../intake/index.ts';
import { fillText } from '../../kernel/mail/mail-identity.ts';
import { mailHtml, mailText, type MailPage } from '../../kernel/mail/mail-layout.ts';
import type { MailMessage, MailSettings } from '../../kernel/mail/mail-message.ts';

/** The signed links of one subscription (src/features/newsletter/newsletter-links.ts). */
export interface OptInLinks {
  confirmUrl: string;
  unsubscribeUrl: string;
}

/*
 * docs/consent.md, "Double opt-in": the e-mail that asks the person to confirm a subscription. Like
 * the contact confirmation it goes to an address nobody has verified yet, so it repeats nothing the
 * subscriber typed but a first name made of letters (src/features/intake/lead-summary.ts).
 */
export function doubleOptInEmail(
  lead: Lead,
  settings: MailSettings,
  links: OptInLinks,
): MailMessage {
  const { identity, siteUrl } = settings;
  const texts = identity.texts.optIn;
  const page: MailPage = {
    title: fillText(texts.subject, identity),
    preview: fillText(texts.intro, identity),
    blocks: [
      { kind: 'paragraph', text: greeting(firstNameOf(lead), identity) },
      { kind: 'paragraph', text: fillText(texts.intro, identity) },
      { kind: 'button', label: fillText(texts.button, identity), url: links.confirmUrl },
      { kind: 'paragraph', small: true, text: fillText(texts.validity, identity) },
      signature(identity),
      { kind: 'heading', text: 'Ce n’est pas vous ?' },
      {
        kind: 'paragraph',
        small: true,
        text: 'Sans confirmation, cette adresse n’est pas inscrite et ne recevra rien. Pour qu’elle ne soit jamais inscrite :',
        link: { label: 'Ne jamais inscrire cette adresse', url: links.unsubscribeUrl },
      },
    ],
  };
  return {
    role: 'optin',
    to: { name: '', address: emailOf(lead) },
    subject: page.title,
    text: mailText(page, identity, siteUrl),
    html: mailHtml(page, identity, siteUrl),
    listUnsubscribe: links.unsubscribeUrl,
  };
}
