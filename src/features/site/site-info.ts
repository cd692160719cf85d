export interface NavLink {
  path: string;
  label: string;
  /** Left out of the one-line phone menu (reached from the home page and the footer). */
  wideOnly?: boolean;
}

/** Main navigation; a link whose page does not exist is left out at build. */
export const PRIMARY_NAV: NavLink[] = [
  { path: '/services', label: 'Services' },
  { path: '/secteurs', label: 'Secteurs' },
  { path: '/realisations', label: 'Réalisations', wideOnly: true },
  { path: '/diagnostic-gratuit', label: 'Diagnostic gratuit', wideOnly: true },
  { path: '/contact', label: 'Contact' },
];

/**
 * Footer links for clients: "/services/*" and sector pages are listed from the content itself. The
 * developers' page and llms.txt are for programs: linked from /developers and llms.txt, not here.
 */
export const FOOTER_LINKS: NavLink[] = [
  { path: '/tarifs', label: 'Tarifs' },
  { path: '/newsletter', label: 'Newsletter' },
  { path: '/mentions-legales', label: 'Mentions légales' },
  { path: '/politique-de-confidentialite', label: 'Politique de confidentialité' },
  // The page where a person asks to unsubscribe, see or erase their data (docs/consent.md).
  { path: '/vos-donnees', label: 'Vos données' },
];

/** The primary call to action, above the fold on every page but its own. */
export const PRIMARY_CTA: NavLink = {
  path: '/diagnostic-gratuit',
  label: 'Demander mon diagnostic gratuit',
};
