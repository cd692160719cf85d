import { oneLine } from '../../kernel/schemas/one-line.ts';

/*
 * docs/delivery.md, « Alerts »: what a person of the agency reads about a destination — its name
 * in plain words, and what to check when it fails — never its journal name alone
 * (`webhook:crm.example:5d522fc6`, `agency-notification`).
 */
interface DestinationWords {
  /** « le webhook vers crm.example », « l’e-mail de confirmation ». */
  label: string;
  /** What to look at when its sending was given up. */
  check: string;
}

const NAMED: Record<string, DestinationWords> = {
  'agency-notification': {
    label: 'la notification à l’équipe',
    check:
      'l’adresse de l’équipe (AGENCY_EMAIL) et le compte du service d’envoi d’e-mails : la demande reste lisible dans l’espace équipe',
  },
  'confirmation-email': {
    label: 'l’e-mail de confirmation à la personne',
    check:
      'l’adresse de la personne (une faute de frappe ?) : sa boîte refuse les e-mails ; l’appeler ou lui écrire d’une autre façon',
  },
  'double-opt-in-email': {
    label: 'l’e-mail demandant de confirmer l’inscription',
    check: 'l’adresse de la personne (une faute de frappe ?) : sa boîte refuse les e-mails',
  },
};

export function destinationWords(destination: string): DestinationWords {
  const named = NAMED[destination];
  if (named) return named;
  const webhook = /^webhook:([^:]+):/.exec(destination);
  if (webhook) {
    return {
      label: `le webhook vers ${webhook[1]}`,
      check: `que l’outil qui reçoit le webhook (${webhook[1]}) est en marche et accepte les envois`,
    };
  }
  if (destination.startsWith('crm-') || destination.startsWith('newsletter-')) {
    return {
      label: 'l’envoi vers le CRM Brevo',
      check: 'le compte Brevo (clé d’API, listes et attributs)',
    };
  }
  return { label: `l’envoi « ${destination} »`, check: 'le service qui reçoit cet envoi' };
}

/**
 * What went wrong in a few words: « répond 500 », « ne répond pas », from what the provider said
 * (src/features/delivery/deadline.ts writes `UpstreamError: … answered 500`).
 */
export function plainCause(said: string, unreachable = false): string {
  if (unreachable) return 'ne répond pas';
  const status = /answered (\d{3})|\b([45]\d\d)[ -]/.exec(said);
  if (status) return `répond ${status[1] ?? status[2]}`;
  if (/timed? ?out|timeout|ECONNREFUSED|ENOTFOUND|ECONNRESET/i.test(said)) return 'ne répond pas';
  return 'refuse les envois';
}

/** The provider's own words, one line, short: under a disclosure of the e-mail, for whoever fixes it. */
export function technicalWords(said: string): string {
  return oneLine(said).slice(0, 300);
}
