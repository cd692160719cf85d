import type { Config } from '../../kernel/config.ts';
import { AuditRequestSchema } from '../../kernel/schemas/audit-request.ts';
import { ContactRequestSchema } from '../../kernel/schemas/contact-request.ts';
import { PRIVACY_PAGE_PATH } from '../../kernel/schemas/privacy-request.ts';
import { SubscribeRequestSchema } from '../../kernel/schemas/subscribe-request.ts';
import { AGENCY, postalAddressLine, type Agency } from './agency.ts';

/**
 * The deployment facts the privacy notice states, taken from the configuration at build time so
 * the page cannot promise what the service does not do (docs/consent.md). The manifest keeps them:
 * a change of any of them rebuilds the site at the next start.
 */
export interface PrivacySettings {
  mailProvider: 'outbox' | 'smtp' | 'brevo';
  retentionDays: number;
  webhooks: number;
  /** NEWSLETTER_DOUBLE_OPT_IN. */
  newsletterDoubleOptIn: boolean;
}

export const DEFAULT_PRIVACY: PrivacySettings = {
  mailProvider: 'outbox',
  retentionDays: 1095,
  webhooks: 0,
  newsletterDoubleOptIn: true,
};

/** The facts above as read from the configuration (MAIL_PROVIDER, RETENTION_DAYS, …). */
export function privacySettings(config: Config): PrivacySettings {
  return {
    mailProvider: config.mail.provider,
    retentionDays: config.retentionDays,
    webhooks: config.webhooks.urls.length,
    newsletterDoubleOptIn: config.newsletterDoubleOptIn,
  };
}

/** Kept in the site manifest: a different value means the page must be generated again. */
export function privacySettingsKey(settings: PrivacySettings): string {
  return JSON.stringify(settings);
}

interface ObjectSchema {
  required?: string[];
  then?: { required?: string[] };
}

const requiredOf = (schema: unknown, full = false) => {
  const object = schema as ObjectSchema;
  return [...(object.required ?? []), ...(full ? (object.then?.required ?? []) : [])];
};

const names: Record<string, string> = {
  PRENOM: 'prénom',
  NOM: 'nom',
  EMAIL: 'adresse e-mail',
  JOB_TITLE: 'métier ou activité',
  TYPE_BESOIN: 'piliers concernés',
  SERVICE: 'service souhaité',
  DEMANDE: 'description du projet',
  email: 'adresse e-mail',
  firstName: 'prénom',
};
const list = (fields: string[]) => fields.map((field) => names[field] ?? field).join(', ');

/** "1095" → "1 095 jours (3 ans)". */
function duration(days: number): string {
  const years = days % 365 === 0 ? ` (${days / 365} an${days / 365 > 1 ? 's' : ''})` : '';
  return `${days.toLocaleString('fr-FR').replace(/\s/g, ' ')} jours${years}`;
}

/**
 * The information notice of RGPD articles 13 and 14 as the CNIL lists it: controller, purposes and
 * legal basis per form, required fields, recipients, retention, rights, complaint to the CNIL.
 */
export function privacyNoticeMarkdown(
  settings: PrivacySettings = DEFAULT_PRIVACY,
  agency: Agency = AGENCY,
): string {
  const { legal, contact } = agency;
  const retention = duration(settings.retentionDays);
  const recipients = [
    '- **L’équipe de l’agence**, pour traiter votre demande.',
    settings.mailProvider === 'brevo'
      ? '- **Brevo** (Sendinblue SAS, société française), notre prestataire d’envoi d’e-mails et de gestion des contacts, sous-traitant au sens de l’article 28 du RGPD : il envoie les e-mails et conserve la liste des contacts pour notre compte.'
      : settings.mailProvider === 'smtp'
        ? '- **Notre serveur d’envoi d’e-mails**, qui transmet les e-mails de confirmation et de notification.'
        : '',
    settings.webhooks > 0
      ? `- **Les outils de l’agence** reliés au service (${settings.webhooks} destination(s) : gestion des contacts, messagerie d’équipe), qui reçoivent chaque demande pour son traitement.`
      : '',
    '- **Notre hébergeur**, indiqué dans les [mentions légales](/mentions-legales).',
  ].filter(Boolean);
  return `Cette page est l’information que vous doit le responsable du traitement (articles 13 et 14 du RGPD). Elle est produite à partir de la configuration du service : elle décrit ce qu’il fait réellement.

## Responsable du traitement

${legal.companyName}, ${postalAddressLine(legal.address)}, ${legal.address.country} ; contact : [${contact.email}](mailto:${contact.email}).

## Ce que collecte chaque formulaire, pourquoi, et sur quelle base

### Formulaire de contact

- **Champs obligatoires** : ${list(requiredOf(ContactRequestSchema, true))} ; téléphone facultatif.
- **Finalité** : répondre à votre demande, vous envoyer l’e-mail de confirmation, préparer un devis.
- **Base légale** : mesures précontractuelles prises à votre demande (article 6, paragraphe 1, point b du RGPD).

### Diagnostic gratuit

- **Champs obligatoires** : ${list(requiredOf(ContactRequestSchema))} ; le reste est facultatif.
- **Finalité** : réaliser le diagnostic demandé et vous l’envoyer.
- **Base légale** : mesures précontractuelles prises à votre demande.

### Questionnaire d’audit par secteur

- **Champs obligatoires** : ${list(requiredOf(AuditRequestSchema))} ; nom, téléphone et réponses au questionnaire facultatifs.
- **Finalité** : préparer l’audit de votre présence en ligne et vous en présenter les résultats.
- **Base légale** : mesures précontractuelles prises à votre demande.

### Newsletter

- **Champs obligatoires** : ${list(requiredOf(SubscribeRequestSchema))} ; nom facultatif.
- **Finalité** : vous envoyer un e-mail par mois avec un conseil pratique.
- **Base légale** : votre consentement (article 6, paragraphe 1, point a du RGPD). Vous le retirez à tout moment en nous écrivant ou par le lien de désinscription de chaque lettre.${
    !settings.newsletterDoubleOptIn
      ? ''
      : '\n- **Confirmation** : votre adresse n’est inscrite qu’une fois votre inscription confirmée depuis le lien de l’e-mail de confirmation (valable 7 jours) ; nous gardons la date de cette confirmation et le réseau d’où il vient (tronqué), comme preuve de votre accord.'
  }

### Preuve de votre accord

Avec chaque demande, nous gardons le texte que vous avez accepté (son empreinte), la date, le canal (formulaire, programme, assistant IA) et le réseau d’origine tronqué (les trois premiers nombres d’une adresse IPv4), pour pouvoir prouver votre consentement (article 7 du RGPD). Base légale : notre obligation de preuve.

### Nos réponses et les vôtres

Ce que l’équipe vous répond (le texte de l’e-mail, qui l’a écrit et quand, ou la note d’un appel) est gardé avec votre demande, pour qu’un collègue puisse reprendre le fil. Quand vous répondez à un de nos e-mails, nous gardons votre message (son texte seulement : ni sa mise en forme, ni ses pièces jointes, dont nous ne gardons que le nom et la taille) avec votre demande, pour que toute l’équipe puisse y donner suite. Si un e-mail ne peut vous être remis (adresse inexistante, boîte pleine) ou si vous le signalez comme indésirable, nous le notons avec votre adresse pour vous joindre autrement, et un signalement comme indésirable arrête nos envois. Base légale : les mesures précontractuelles prises à votre demande, et notre intérêt légitime à ne pas écrire en vain.

## Qui reçoit vos données

${recipients.join('\n')}

Nous ne vendons ni ne louons vos données, et nous ne les utilisons pas pour de la publicité.

## Combien de temps nous les conservons

- **Toutes les demandes** (contact, diagnostic, audit, newsletter), nos réponses et les vôtres, ce que nous savons de la remise de nos e-mails et la preuve de consentement : ${retention} après votre dernière demande, puis suppression automatique.
- **Newsletter** : jusqu’à votre désinscription, et au plus ${retention} après votre dernière demande.
- **Après une demande d’effacement** : seule une empreinte non réversible de votre adresse et la date sont gardées, pour ne pas vous réinscrire par erreur.

## Vos droits

Vous disposez d’un droit d’accès, de rectification, d’effacement, de limitation du traitement et de portabilité de vos données, d’un droit d’opposition (notamment à tout envoi d’information, à tout moment et sans avoir à vous justifier), du droit de retirer votre consentement, et du droit de définir des directives sur le sort de vos données après votre décès.

Pour vous désinscrire, recevoir une copie de ce que nous gardons de votre adresse ou la faire effacer, le plus simple est la page [Vos données](${PRIVACY_PAGE_PATH}) : vous confirmez la demande par un lien envoyé à l’adresse concernée, et elle est traitée aussitôt. Pour tout autre droit, écrivez à [${contact.email}](mailto:${contact.email}) ou à ${legal.companyName}, ${postalAddressLine(legal.address)}. Nous répondons dans un délai d’un mois ; l’effacement porte aussi sur les copies tenues par nos prestataires.

Si vous estimez, après nous avoir contactés, que vos droits ne sont pas respectés, vous pouvez adresser une réclamation à la CNIL (Commission nationale de l’informatique et des libertés, 3 place de Fontenoy, TSA 80715, 75334 Paris Cedex 07, [cnil.fr/fr/plaintes](https://www.cnil.fr/fr/plaintes)).`;
}
