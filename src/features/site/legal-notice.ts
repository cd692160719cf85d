import { AGENCY, postalAddressLine, type Agency } from './agency.ts';

/**
 * The identity sections of /mentions-legales, generated from site/agency.yaml (LCEN, loi n° 2004-575
 * du 21 juin 2004, article 6 III): publisher, publication director, host. The written page follows.
 */
export function legalNoticeMarkdown(agency: Agency = AGENCY): string {
  const { legal, contact, publicationDirector, host } = agency;
  return `## Éditeur du site

- Raison sociale : ${legal.companyName}
- Forme juridique et capital : ${legal.legalForm} au capital de ${legal.capital}
- Siège social : ${postalAddressLine(legal.address)}, ${legal.address.country}
- Immatriculation : ${legal.registration}
- SIRET : ${legal.siret}
- Numéro de TVA intracommunautaire : ${legal.vatNumber}
- Adresse e-mail : [${contact.email}](mailto:${contact.email})
- Téléphone : [${contact.phoneDisplay}](tel:${contact.phone}), ${contact.hours}

## Directeur de la publication

${publicationDirector.name}, ${publicationDirector.role}.

## Hébergement

- Hébergeur : ${host.name}
- Adresse : ${host.address}
- Téléphone : ${host.phone}`;
}
