/**
 * docs/workspace.md: the agency's workspace lives under this path. The site closes it to every robot
 * (robots.txt) and lists none of it in the sitemap or llms.txt; notifications link to a lead's page.
 */
export const WORKSPACE_PATH = '/equipe';

/** The page of one lead for the team: SITE_URL + this (shared decision of the workspace). */
export function leadPagePath(leadId: string): string {
  return `${WORKSPACE_PATH}/prospects/${encodeURIComponent(leadId)}`;
}

/** The query parameter of an invitation link that carries its token (masked in logs). */
export const INVITATION_PARAMETER = 'jeton';

/** The inbox's search parameter: a name or words a person wrote, masked in logs like an address. */
export const SEARCH_PARAMETER = 'q';
