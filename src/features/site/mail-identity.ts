import type { MailIdentity } from '../../kernel/mail/mail-identity.ts';
import { AGENCY, postalAddressLine, type Agency } from './agency.ts';
import { typesetText } from './typeset.ts';

/**
 * The agency's identity as the e-mails need it (src/kernel/mail/mail-identity.ts), its texts
 * typeset as the site's pages are (typographic apostrophe, no-break spaces). The composition root
 * (src/server.ts, the CLI) passes it down: src/kernel/mail sits below the features and never
 * imports one.
 */
export function mailIdentity(agency: Agency = AGENCY): MailIdentity {
  const { senderName, signature, ...texts } = agency.mail;
  const typeset = <T>(value: T): T =>
    JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
      typeof item === 'string' ? typesetText(item) : item,
    ) as T;
  return {
    senderName: typeset(senderName),
    agencyName: typeset(agency.name),
    address: postalAddressLine(agency.legal.address),
    phone: { display: agency.contact.phoneDisplay, dial: agency.contact.phone },
    brandColor: agency.brandColor,
    texts: typeset({ ...texts, signature: signature.split('\n').filter((line) => line.trim()) }),
  };
}
