import type { MailIdentity } from '../src/mail/mail-identity.ts';
import { AGENCY, postalAddressLine, type Agency } from './agency.ts';

/**
 * The agency's identity as the e-mails need it (src/mail/mail-identity.ts). The composition root
 * (src/server.ts, the CLI) passes it down: src/mail sits below site/ and never imports it.
 */
export function mailIdentity(agency: Agency = AGENCY): MailIdentity {
  const { senderName, ...texts } = agency.emails;
  return {
    senderName,
    agencyName: agency.name,
    address: postalAddressLine(agency.legal.address),
    phone: { display: agency.contact.phoneDisplay, dial: agency.contact.phone },
    brandColor: agency.brandColor,
    texts,
  };
}
