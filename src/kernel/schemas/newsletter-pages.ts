import { PRIVACY_PAGE_PATH, type PrivacyKind } from './privacy-request.ts';

/*
 * The pages a person reaches from a newsletter e-mail (docs/consent.md, "Double opt-in"): their
 * addresses, written into the e-mails and served by src/features/newsletter/newsletter-routes.ts,
 * and their words, pre-rendered by the site build in the site's layout. They are answers to one
 * signed link, not pages of the site: no Markdown twin, out of the sitemap, disallowed in
 * robots.txt.
 */

export const NEWSLETTER_CONFIRM_PATH = '/newsletter/confirmation';
export const NEWSLETTER_UNSUBSCRIBE_PATH = '/newsletter/desinscription';
/** The query parameter that carries the signed token. */
export const LINK_TOKEN_PARAMETER = 'jeton';

export type NewsletterPageState =
  | 'confirm'
  | 'confirmed'
  | 'unsubscribe'
  | 'unsubscribed'
  | 'unsubscribe-help'
  | 'unsubscribe-invalid'
  | 'invalid'
  | 'expired'
  | 'used'
  | 'unavailable';

export interface NewsletterPage {
  status: 200 | 400 | 410 | 503;
  title: string;
  /** The sentence under the title. */
  lead: string;
  /** Markdown paragraphs under it. */
  body: string;
  /** A button posting to the link's own address (the token kept), when the page asks for a click. */
  button?: { label: string; hidden?: Record<string, string> };
  /** The form of /vos-donnees for this kind of request, when the page offers it instead of a link. */
  privacyForm?: PrivacyKind;
}

const subscribeAgain =
  'Pour recevoir la newsletter, [inscrivez-vous à nouveau](/newsletter) : un nouvel e-mail de confirmation vous sera envoyé (un par adresse et par 24 heures au plus : si vous en avez reçu un aujourd’hui, suivez plutôt son lien).';

/**
 * The unsubscribe page opened without a valid link (docs/consent.md): how to unsubscribe, and the
 * request of /vos-donnees to do it now, never an invitation to subscribe again.
 */
const unsubscribeWithoutLink =
  'Chaque newsletter contient, en bas, un lien de désinscription propre à votre adresse : il suffit de l’ouvrir puis d’appuyer sur le bouton. Vous ne retrouvez pas d’e-mail ? Indiquez votre adresse ci-dessous : nous y envoyons un lien de confirmation, et la désinscription est faite dès que vous le suivez. Un assistant IA peut faire cette demande pour vous, et la page [Vos données](' +
  PRIVACY_PAGE_PATH +
  ') permet aussi de recevoir une copie de vos données ou de les faire effacer.';

/** Where the button of a page posts: the link's own address, filled in when the page is served. */
export const BUTTON_ACTION_PLACEHOLDER = '__lien_newsletter__';

export const NEWSLETTER_PAGES: Readonly<Record<NewsletterPageState, NewsletterPage>> = {
  confirm: {
    status: 200,
    title: 'Confirmez votre inscription à la newsletter',
    lead: 'Un clic sur le bouton ci-dessous et votre adresse reçoit un conseil concret par mois.',
    body: 'Vous pourrez vous désinscrire en un clic, par le lien présent dans chaque e-mail. Si vous n’avez rien demandé, fermez simplement cette page : votre adresse ne sera pas inscrite.',
    button: { label: 'Confirmer mon inscription' },
  },
  confirmed: {
    status: 200,
    title: 'C’est fait : votre inscription est confirmée',
    lead: 'Merci ! Votre adresse est inscrite à la newsletter : le premier conseil arrive au début du mois prochain.',
    body: 'Chaque e-mail contient un lien pour vous désinscrire en un clic.\n\n[Retour à l’accueil](/)',
  },
  unsubscribe: {
    status: 200,
    title: 'Se désinscrire de la newsletter',
    lead: 'Un clic sur le bouton ci-dessous et votre adresse ne reçoit plus la newsletter.',
    body: 'Vous pourrez vous réinscrire à tout moment depuis la [page de la newsletter](/newsletter).',
    button: { label: 'Me désinscrire', hidden: { 'List-Unsubscribe': 'One-Click' } },
  },
  unsubscribed: {
    status: 200,
    title: 'Votre désinscription est enregistrée',
    lead: 'Votre adresse ne reçoit plus la newsletter.',
    body: `Une erreur ? ${subscribeAgain}\n\n[Retour à l’accueil](/)`,
  },
  'unsubscribe-help': {
    status: 200,
    title: 'Se désinscrire de la newsletter',
    lead: 'Pour ne plus recevoir la newsletter, deux chemins : le lien de l’un de nos e-mails, ou une demande ici.',
    body: unsubscribeWithoutLink,
    privacyForm: 'unsubscribe',
  },
  'unsubscribe-invalid': {
    status: 400,
    title: 'Ce lien de désinscription n’est pas valable',
    lead: 'Le lien est incomplet ou a été modifié : il ne correspond à aucun e-mail que nous avons envoyé. Ouvrez-le directement depuis l’e-mail, ou copiez-le en entier.',
    body: unsubscribeWithoutLink,
    privacyForm: 'unsubscribe',
  },
  invalid: {
    status: 400,
    title: 'Ce lien n’est pas valable',
    lead: 'Le lien est incomplet ou a été modifié : il ne correspond à aucun e-mail que nous avons envoyé.',
    body: `Ouvrez-le directement depuis l’e-mail, ou copiez-le en entier.\n\n${subscribeAgain}`,
  },
  expired: {
    status: 410,
    title: 'Ce lien a expiré',
    lead: 'Un lien de confirmation reste valable 7 jours, et celui-ci est plus ancien : votre adresse n’a pas été inscrite.',
    body: subscribeAgain,
  },
  used: {
    status: 410,
    title: 'Ce lien a déjà servi',
    lead: 'Chaque lien de confirmation ne sert qu’une fois : celui-ci a déjà été utilisé, ou l’inscription a été annulée depuis.',
    body: `Si vous l’avez suivi, votre inscription est déjà confirmée : rien d’autre à faire.\n\nDésinscription depuis, ou inscription annulée ? ${subscribeAgain}`,
  },
  unavailable: {
    status: 503,
    title: 'Service momentanément indisponible',
    lead: 'Nous n’avons pas pu enregistrer votre choix pour le moment.',
    body: 'Réessayez dans quelques minutes en rouvrant le lien de l’e-mail.',
  },
};
