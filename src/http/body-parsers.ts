import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiErrors } from './error-catalog.ts';
import { parseFormBody } from './form-body.ts';

export const JSON_MEDIA_TYPE = 'application/json';
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

export function mediaTypeOf(request: FastifyRequest): string | undefined {
  return request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
}

export function isFormRequest(request: FastifyRequest): boolean {
  return mediaTypeOf(request) === FORM_MEDIA_TYPE;
}

/**
 * Spec 4 rule 1: JSON (any charset parameter) or an HTML form. Plain JSON.parse keeps a "__proto__"
 * key as ordinary data (an own property), where a stricter parser would reject a valid lead.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(apiErrors.invalidJson(), undefined);
    }
  });
  app.addContentTypeParser(FORM_MEDIA_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseFormBody(body as string));
  });
}

/** A POST with no body and no Content-Type never reaches a parser: refuse it as spec 7 says (415). */
export async function requireSupportedMediaType(request: FastifyRequest): Promise<void> {
  const mediaType = mediaTypeOf(request);
  if (mediaType !== JSON_MEDIA_TYPE && mediaType !== FORM_MEDIA_TYPE) {
    throw apiErrors.unsupportedMediaType(request.headers['content-type']);
  }
}
