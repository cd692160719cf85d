import { LEAD_KINDS, type ApiAction, type LeadKindDescriptor } from './lead-kinds.ts';
import { PRIVACY_ACTION } from './privacy-request.ts';

/**
 * Every endpoint of the public API (spec 4, and the privacy request of docs/consent.md): what
 * « N points d’accès » counts in /openapi.json, /developers, llms.txt and the site's pages.
 */
export function apiEndpoints(kinds: readonly LeadKindDescriptor[] = LEAD_KINDS): ApiAction[] {
  return [...kinds, PRIVACY_ACTION];
}
