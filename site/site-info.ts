/** What the chrome of every page and the machine-readable files say about the agency. */
export const SITE = {
  name: 'Repère',
  tagline: 'Agence web de proximité',
  summary:
    'Agence web française pour les indépendants, commerces et artisans à clientèle locale : sites sur mesure, fiche d’établissement Google, référencement local et visibilité dans les assistants IA. Spécialisée pour les avocats, les boutiques et les entreprises du BTP. Une personne répond à chaque demande de contact sous 24 heures ouvrées.',
};

export interface NavLink {
  path: string;
  label: string;
}

/** Main navigation; a link whose page does not exist is left out at build. */
export const PRIMARY_NAV: NavLink[] = [
  { path: '/services', label: 'Services' },
  { path: '/secteurs', label: 'Secteurs' },
  { path: '/diagnostic-gratuit', label: 'Diagnostic gratuit' },
  { path: '/contact', label: 'Contact' },
];

/** Footer groups: "/services/*" and sector pages are listed from the content itself. */
export const FOOTER_LINKS: NavLink[] = [
  { path: '/newsletter', label: 'Lettre mensuelle' },
  { path: '/developers', label: 'Développeurs et agents IA' },
  { path: '/mentions-legales', label: 'Mentions légales' },
  { path: '/politique-de-confidentialite', label: 'Politique de confidentialité' },
];
