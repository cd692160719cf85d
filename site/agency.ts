/**
 * THE AGENCY'S IDENTITY: the one file the operator edits before going live.
 *
 * The legal notice, the footer, the proof blocks of the pages, the JSON-LD, the identity part of
 * /llms.txt (and the privacy notice) are generated from `AGENCY`. Every value written
 * `sample('…')` is a SAMPLE shipped so the site looks finished: replace it with the real value,
 * written as a plain string, without `sample(…)`. `leadgate build` lists each sample value still
 * present, and refuses to build with NODE_ENV=production unless given `--allow-sample-identity`
 * (docs/site.md, "The agency's identity").
 */

import type { MailTexts } from '../src/mail/mail-identity.ts';

export interface PostalAddress {
  street: string;
  postalCode: string;
  locality: string;
  country: string;
}

export interface Person {
  name: string;
  role: string;
  /** One sentence a prospective client reads: experience, what this person does for them. */
  bio: string;
}

export interface Reference {
  client: string;
  /** Sector and town, as a client would say it: "Cabinet d’avocats, Lyon 3e". */
  context: string;
  /** What changed, with a figure when there is one. */
  result: string;
  /** The site the agency made or improved, when the client agrees to show it. */
  url?: string;
}

export interface PriceRange {
  service: string;
  /** As displayed: "à partir de 2 400 € HT". */
  price: string;
  includes: string;
}

/**
 * The e-mails' words (docs/emails.md, src/mail/mail-identity.ts). `{prénom}` is the person's first
 * name (only in `greeting.named`), `{agence}` the agency's name, anywhere.
 */
export type AgencyEmails = MailTexts & {
  /** The sender's display name: `"Repère" <MAIL_FROM's address>`. */
  senderName: string;
};

export interface Agency {
  name: string;
  tagline: string;
  /** Two or three sentences: the JSON-LD description and the llms.txt summary. */
  summary: string;
  legal: {
    companyName: string;
    legalForm: string;
    /** Share capital as displayed, with its currency: "5 000 €". */
    capital: string;
    siret: string;
    /** "RCS Lyon 912 345 678". */
    registration: string;
    vatNumber: string;
    address: PostalAddress;
  };
  contact: {
    email: string;
    /** As dialled from abroad, for tel: links and JSON-LD: "+33465711234". */
    phone: string;
    /** As read in France: "04 65 71 12 34". */
    phoneDisplay: string;
    hours: string;
  };
  publicationDirector: { name: string; role: string };
  host: { name: string; address: string; phone: string };
  team: Person[];
  references: Reference[];
  /** Short figures for the proof blocks: "38 clients accompagnés". */
  figures: { value: string; label: string }[];
  prices: PriceRange[];
  /** The colour of the e-mails' header band and buttons (white text on it must read: 4.5:1). */
  brandColor: string;
  emails: AgencyEmails;
}

const SAMPLE_VALUES = new Set<string>();

/** Marks a shipped sample value: the build warns while one is left (see the top of this file). */
function sample(value: string): string {
  SAMPLE_VALUES.add(value);
  return value;
}

export const AGENCY: Agency = {
  name: sample('Repère'),
  tagline: 'Agence web de proximité',
  summary:
    'Agence web française pour les indépendants, commerces et artisans à clientèle locale : sites sur mesure, fiche d’établissement Google, référencement local et visibilité dans les assistants IA. Spécialisée pour les avocats, les boutiques et les entreprises du BTP. Une personne répond à chaque demande de contact sous 24 heures ouvrées.',
  legal: {
    companyName: sample('Repère Web'),
    legalForm: sample('SAS'),
    capital: sample('5 000 €'),
    siret: sample('912 345 678 00014'),
    registration: sample('RCS Lyon 912 345 678'),
    vatNumber: sample('FR 27 912 345 678'),
    address: {
      street: sample('14 rue de la République'),
      postalCode: sample('69002'),
      locality: sample('Lyon'),
      country: 'France',
    },
  },
  contact: {
    email: sample('bonjour@agence-repere.example'),
    phone: sample('+33465711234'),
    phoneDisplay: sample('04 65 71 12 34'),
    hours: sample('du lundi au vendredi, de 9 h à 18 h'),
  },
  publicationDirector: { name: sample('Claire Martin'), role: sample('présidente') },
  host: {
    name: sample('OVH SAS'),
    address: sample('2 rue Kellermann, 59100 Roubaix, France'),
    phone: sample('1007'),
  },
  team: [
    {
      name: sample('Claire Martin'),
      role: sample('Fondatrice, stratégie et référencement local'),
      bio: sample(
        'Douze ans de référencement pour des cabinets et des commerces ; elle lit chaque demande de diagnostic.',
      ),
    },
    {
      name: sample('Yanis Benali'),
      role: sample('Développeur, sites et performances'),
      bio: sample(
        'Construit des sites qui s’affichent en moins d’une seconde sur un téléphone d’entrée de gamme.',
      ),
    },
    {
      name: sample('Élodie Garnier'),
      role: sample('Rédactrice, fiches Google et contenus'),
      bio: sample(
        'Ancienne juriste : elle écrit des pages claires qui respectent les règles de chaque profession.',
      ),
    },
  ],
  references: [
    {
      client: sample('Cabinet Ferrand Avocats'),
      context: sample('Droit de la famille, Lyon 3e'),
      result: sample('Trois fois plus de premiers rendez-vous demandés par le site en six mois.'),
    },
    {
      client: sample('Atelier Vélo Croix-Rousse'),
      context: sample('Boutique et réparation, Lyon 4e'),
      result: sample(
        'Passée de 12 à 140 avis Google ; premier résultat sur « réparation vélo Lyon ».',
      ),
    },
    {
      client: sample('Durand Rénovation'),
      context: sample('Artisan du bâtiment, Villeurbanne'),
      result: sample(
        'Deux demandes de devis par semaine venues du site, contre deux par mois avant.',
      ),
    },
  ],
  figures: [
    { value: sample('38'), label: 'clients accompagnés depuis 2019' },
    { value: '24 h', label: 'ouvrées au plus pour une réponse humaine' },
    { value: sample('4,9/5'), label: sample('note moyenne de nos clients sur Google') },
  ],
  prices: [
    {
      service: 'Diagnostic de présence en ligne',
      price: 'gratuit',
      includes: 'Les trois points à corriger en priorité, par écrit, sans engagement.',
    },
    {
      service: 'Fiche d’établissement Google',
      price: sample('à partir de 390 € HT'),
      includes: sample('Fiche complétée, vérifiée, photos, catégories et réponses aux avis.'),
    },
    {
      service: 'Site sur mesure',
      price: sample('à partir de 2 400 € HT'),
      includes: sample('Cinq à dix pages rédigées, rapides, accessibles, formulaire et mesure.'),
    },
    {
      service: 'Référencement local et visibilité IA',
      price: sample('à partir de 290 € HT par mois'),
      includes: sample(
        'Pages locales, citations, suivi des positions et des réponses des assistants.',
      ),
    },
  ],
  brandColor: '#1d4ed8',
  emails: {
    senderName: sample('Repère'),
    greeting: { named: 'Bonjour {prénom},', anonymous: 'Bonjour,' },
    closing: 'À très vite,',
    signature: [sample('Claire Martin'), 'pour l’équipe de {agence}'],
    confirmation: {
      subject: 'Nous avons bien reçu votre demande',
      thanks: 'Merci pour votre message : il est bien arrivé chez nous.',
      nextSteps:
        'Une personne de l’équipe lit votre demande et vous répond elle-même sous 24 heures ouvrées (hors week-ends et jours fériés). Vous n’avez rien d’autre à faire.',
      reply:
        'Une précision à ajouter ? Répondez simplement à cet e-mail : votre message rejoint votre demande.',
    },
    optIn: {
      subject: 'Confirmez votre inscription à la newsletter',
      intro:
        'Quelqu’un, sans doute vous, a demandé à recevoir la newsletter de {agence} à cette adresse : un conseil concret par mois. Il reste une étape : confirmer que cette adresse est bien la vôtre.',
      button: 'Confirmer mon inscription',
      validity: 'Ce lien est valable 7 jours.',
    },
  },
};

/** "legal.siret: 912 345 678 00014" for every sample value still present in `agency`. */
export function sampleValuesLeft(agency: Agency = AGENCY): string[] {
  const found: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') {
      if (SAMPLE_VALUES.has(value)) found.push(`${path}: ${value}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, `${path}[${index}]`));
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) walk(item, path ? `${path}.${key}` : key);
    }
  };
  walk(agency, '');
  return found;
}

/** One line: "14 rue de la République, 69002 Lyon". */
export function postalAddressLine(address: PostalAddress): string {
  return `${address.street}, ${address.postalCode} ${address.locality}`;
}
