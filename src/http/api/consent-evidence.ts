import type { FastifyRequest } from 'fastify';
import type { ConsentEvidence } from '../../domain/lead/consent.ts';
import type { LeadBody, LeadData } from '../../schemas/lead-kinds.ts';
import { isFormRequest } from './body-parsers.ts';

/**
 * Splits the consent declaration off the lead's fields (it is proof about the request, not part of
 * it: it never reaches the e-mails or the CRM) and adds what the server saw: a form post is the
 * site's form unless it says otherwise (the site's script posts JSON with `consent.channel` = form), a JSON call is the API; the client address after TRUST_PROXY.
 */
export function splitConsent(request: FastifyRequest<{ Body: LeadBody }>): {
  data: LeadData;
  consent: ConsentEvidence;
} {
  const { consent: declared, ...data } = request.body;
  const channel = declared?.channel ?? (isFormRequest(request) ? 'form' : 'api');
  return {
    data,
    consent: {
      channel,
      version: declared?.version,
      // The site's forms post from the page that showed the wording (same origin, so the Referer
      // carries its path; the query string is left out).
      page: declared?.page ?? (channel === 'form' ? refererPath(request) : undefined),
      clientAddress: request.ip,
    },
  };
}

function refererPath(request: FastifyRequest): string | undefined {
  const referer = request.headers.referer;
  if (!referer) return undefined;
  try {
    return new URL(referer).pathname.slice(0, 300);
  } catch {
    return undefined;
  }
}
