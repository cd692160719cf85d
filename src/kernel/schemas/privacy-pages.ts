import type { NewsletterPage } from './newsletter-pages.ts';
import { PRIVACY_PAGE_PATH, type PrivacyKind } from './privacy-request.ts';

/*
 * The page with the request form (/vos-donnees) and the answers to its signed link
 * (docs/consent.md, "Requests about one's data"), pre-rendered by the site build in the site's
 * layout and served by src/features/privacy/privacy-routes.ts with their status, like a newsletter
 * link's.
 */
export const PRIVACY_CONFIRM_PATH = `${PRIVACY_PAGE_PATH}/confirmation`;
/** A privacy link is valid 7 days, as a newsletter confirmation link. */
export const PRIVACY_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export type PrivacyPageState =
  `confirm-${PrivacyKind}` | `done-${PrivacyKind}` | 'invalid' | 'expired' | 'used' | 'unavailable';

const again = `Pour recommencer, refaites la demande depuis la page [Vos données](${PRIVACY_PAGE_PATH}).`;

export const PRIVACY_PAGES: Readonly<Record<PrivacyPageState, NewsletterPage>> = {
  'confirm-unsubscribe': {
    status: 200,
    title: 'Confirmez votre désinscription',
    lead: 'Un clic sur le bouton ci-dessous et cette adresse ne reçoit plus la newsletter.',
    body: 'Si vous n’avez rien demandé, fermez simplement cette page : rien ne change.',
    button: { label: 'Me désinscrire' },
  },
  'confirm-access': {
    status: 200,
    title: 'Confirmez votre demande d’accès à vos données',
    lead: 'Un clic sur le bouton ci-dessous et nous envoyons à cette adresse tout ce que nous gardons d’elle.',
    body: 'Si vous n’avez rien demandé, fermez simplement cette page : rien n’est envoyé.',
    button: { label: 'Recevoir mes données' },
  },
  'confirm-erasure': {
    status: 200,
    title: 'Confirmez l’effacement de vos données',
    lead: 'Un clic sur le bouton ci-dessous et nous effaçons tout ce que nous gardons de cette adresse : demandes, inscription à la newsletter, contact chez notre prestataire d’envoi.',
    body: 'L’effacement est définitif. Nous ne gardons que ce que la loi demande pour prouver que nous avons répondu : une empreinte de l’adresse, qui ne permet pas de la retrouver, et la date. Si vous n’avez rien demandé, fermez simplement cette page : rien n’est effacé.',
    button: { label: 'Effacer mes données' },
  },
  'done-unsubscribe': {
    status: 200,
    title: 'Votre désinscription est enregistrée',
    lead: 'Cette adresse ne reçoit plus la newsletter.',
    body: '[Retour à l’accueil](/)',
  },
  'done-access': {
    status: 200,
    title: 'Vos données partent par e-mail',
    lead: 'Nous envoyons à cette adresse tout ce que nous gardons d’elle.',
    body: 'Rien reçu d’ici une heure ? Regardez dans les indésirables, ou écrivez-nous.\n\n[Retour à l’accueil](/)',
  },
  'done-erasure': {
    status: 200,
    title: 'Vos données sont effacées',
    lead: 'Nous ne gardons plus rien de cette adresse, hormis l’empreinte et la date qui prouvent que nous avons répondu.',
    body: '[Retour à l’accueil](/)',
  },
  invalid: {
    status: 400,
    title: 'Ce lien n’est pas valable',
    lead: 'Le lien est incomplet ou a été modifié : il ne correspond à aucun e-mail que nous avons envoyé.',
    body: `Ouvrez-le directement depuis l’e-mail, ou copiez-le en entier. ${again}`,
  },
  expired: {
    status: 410,
    title: 'Ce lien a expiré',
    lead: 'Un lien de confirmation reste valable 7 jours, et celui-ci est plus ancien : rien n’a été fait.',
    body: again,
  },
  used: {
    status: 410,
    title: 'Ce lien a déjà servi',
    lead: 'Chaque lien de confirmation ne sert qu’une fois : cette demande a déjà été confirmée.',
    body: `Rien d’autre à faire. ${again}`,
  },
  unavailable: {
    status: 503,
    title: 'Service momentanément indisponible',
    lead: 'Nous n’avons pas pu traiter votre demande pour le moment.',
    body: 'Réessayez dans quelques minutes en rouvrant le lien de l’e-mail.',
  },
};
