import type { FastifyReply, FastifyRequest } from 'fastify';
import { servedAgency } from '../site/index.ts';
import { html, type HtmlValue, type SafeHtml } from './html.ts';
import type { Staff, WorkspaceNotice } from './workspace-context.ts';

/** The workspace's stylesheet: the site's own, then a few rules of its own (workspace-styles.ts). */
export const WORKSPACE_STYLESHEET = '/equipe/espace.css';

/**
 * One entry of the workspace's navigation; `adminOnly` entries are shown to admins only, `primary`
 * ones stay in view on a phone (the others go in the « Menu » disclosure), with their count.
 */
export interface WorkspaceNavItem {
  key: string;
  path: string;
  label: string;
  adminOnly?: boolean;
  primary?: boolean;
}

/** docs/workspace-security.md, "Adding a page": a new section adds its entry here. */
export const WORKSPACE_NAV: readonly WorkspaceNavItem[] = [
  { key: 'prospects', path: '/equipe', label: 'À traiter', primary: true },
  { key: 'a-verifier', path: '/equipe/a-verifier', label: 'À vérifier', primary: true },
  { key: 'tous', path: '/equipe?vue=tous', label: 'Tous les prospects' },
  { key: 'personnes', path: '/equipe/personnes', label: 'Personnes' },
  { key: 'tableau-de-bord', path: '/equipe/tableau-de-bord', label: 'Tableau de bord' },
  { key: 'journal', path: '/equipe/journal', label: 'Journal d’activité', adminOnly: true },
  { key: 'equipe', path: '/equipe/equipe', label: 'Équipe', adminOnly: true },
];

export type WorkspaceSection = (typeof WORKSPACE_NAV)[number]['key'] | 'compte' | undefined;

export interface WorkspacePageOptions {
  /** The page's h1 and the start of its <title>. */
  title: string;
  /** The signed-in member (request.staff); undefined on the sign-in and invitation pages. */
  staff?: Staff;
  /** request.csrfToken: the sign-out form carries it. */
  csrfToken?: string;
  /** Which navigation entry is the current page (aria-current). */
  current?: WorkspaceSection;
  /** How many items wait behind a navigation entry (« À traiter 7 »), by its key. */
  counts?: Readonly<Record<string, number>>;
  /**
   * One line above the page's title for what needs attention now (docs/workspace.md, « Sur un
   * téléphone »): the pages are laid out so the first record still fits the first screen with it.
   */
  notice?: WorkspaceNotice;
  body: HtmlValue;
}

/** A hidden `_csrf` field: every form that POSTs inside the workspace includes it. */
export function csrfField(csrfToken: string | undefined): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${csrfToken ?? ''}">`;
}

const currentMark = (yes: boolean) => (yes ? html` aria-current="page"` : '');

/**
 * The primary entries with their counts, then the others in a `<details>` « Menu »: a menu without
 * JavaScript on a phone, shown inline from 48rem (workspace-styles.ts, `::details-content`).
 */
function navigation(
  staff: Staff,
  csrfToken: string | undefined,
  current: WorkspaceSection,
  counts: Readonly<Record<string, number>>,
) {
  const link = (item: WorkspaceNavItem) =>
    html`<li><a href="${item.path}"${currentMark(item.key === current)}>${item.label}${item.key in counts ? html` <span class="nav-count">${counts[item.key]}</span>` : ''}</a></li>`;
  const shown = WORKSPACE_NAV.filter((item) => !item.adminOnly || staff.role === 'admin');
  return html`<nav class="site-nav workspace-nav" aria-label="Espace équipe"><ul>${shown.filter((item) => item.primary).map(link)}</ul>
<details class="nav-more"><summary>Menu</summary><ul>${shown.filter((item) => !item.primary).map(link)}
<li><a href="/equipe/compte"${currentMark(current === 'compte')}>Mon compte</a></li>
<li><form method="post" action="/equipe/deconnexion" class="inline-form">${csrfField(csrfToken)}<button type="submit" class="link-button">Se déconnecter</button></form></li>
</ul></details></nav>`;
}

/**
 * The whole HTML page of the workspace (docs/workspace.md): French, the site's look, one h1, the
 * navigation when someone is signed in, no script, never indexed.
 */
export function workspacePage({
  title,
  staff,
  csrfToken,
  current,
  counts = {},
  notice,
  body,
}: WorkspacePageOptions): SafeHtml {
  const who = staff
    ? html`<p class="staff-who">${staff.name || staff.email}${staff.role === 'admin' ? ' (admin)' : ''}</p>`
    : '';
  return html`<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${title} · Espace équipe · ${servedAgency().name}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${WORKSPACE_STYLESHEET}">
</head>
<body class="workspace">
<a class="skip-link" href="#contenu">Aller au contenu</a>
<header class="site-header">
<div class="wrap header-bar">
<a class="brand" href="/equipe">${servedAgency().name}<small>Espace équipe</small></a>
${who}
</div>
${staff ? html`<div class="wrap">${navigation(staff, csrfToken, current, counts)}</div>` : ''}
</header>
<main id="contenu" class="wrap workspace-main">
${notice ? html`<div class="workspace-notice" role="status"><p><span>${notice.text}</span> — <a href="${notice.href}">Voir</a></p></div>` : ''}
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

/** Sends a workspace page for the signed-in member (the guard already set the headers). */
export function sendWorkspacePage(
  request: FastifyRequest,
  reply: FastifyReply,
  page: Omit<WorkspacePageOptions, 'staff' | 'csrfToken'> & { status?: number },
) {
  return reply
    .code(page.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(
      workspacePage({
        ...request.workspaceChrome,
        ...page,
        staff: request.staff,
        csrfToken: request.csrfToken,
      }).value,
    );
}

const PARIS_TIME = new Intl.DateTimeFormat('fr-FR', {
  dateStyle: 'short',
  timeStyle: 'short',
  timeZone: 'Europe/Paris',
});

/** A date as the team reads it: Paris time, French format. */
export function parisTime(date: Date): string {
  return PARIS_TIME.format(date);
}

/**
 * A table that becomes one card per row on a narrow screen (workspace-styles.ts, `.card-table`):
 * each cell's `data-label` names it there. Still a focusable, named region in case a cell is wider
 * than the screen, so keyboard users can scroll it too (WCAG 2.1.1; axe's
 * scrollable-region-focusable).
 */
export function scrollingTable(label: string, table: SafeHtml): SafeHtml {
  return html`<div class="table-scroll card-table" role="region" aria-label="${label}" tabindex="0">${table}</div>`;
}

/** A cell named for its card on a phone: `<td data-label="Statut">`. */
export function cell(label: string, content: HtmlValue): SafeHtml {
  return html`<td data-label="${label}">${content}</td>`;
}
