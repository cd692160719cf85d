import type { IncomingHttpHeaders } from 'node:http';
import Negotiator from 'negotiator';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiErrors } from '../schemas/error-catalog.ts';
import { exampleFor } from './error-handler.ts';
import { parseFormBody } from './form-body.ts';

export const JSON_MEDIA_TYPE = 'application/json';
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/**
 * A request as Fastify or Node gives it: only its headers are read
 * (src/kernel/http/site/fast-path.ts).
 */
interface WithHeaders {
  headers: IncomingHttpHeaders;
}

export function mediaTypeOf(request: WithHeaders): string | undefined {
  return request.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
}

export function isFormRequest(request: WithHeaders): boolean {
  return mediaTypeOf(request) === FORM_MEDIA_TYPE;
}

/*
 * Negotiator is what the `accepts` package wraps; used directly, with full media types, it does not
 * load mime-db's 200 KB table at every start (docs/performance.md, "What a start loads").
 */
const BROWSER_OR_JSON = ['text/html', 'application/json'];

/**
 * A browser's form post: urlencoded, and an Accept that does not prefer JSON to HTML (absent,
 * `*\/*`, a browser's default). It gets the 303 of spec 4 rule 4 on success, and its form page
 * back on a validation error (docs/api-decisions.md); anyone asking for JSON gets JSON.
 */
export function isBrowserFormPost(request: WithHeaders): boolean {
  return (
    isFormRequest(request) &&
    new Negotiator(request).mediaType(BROWSER_OR_JSON) !== 'application/json'
  );
}

/**
 * Spec 4 rule 1: JSON (any charset parameter) or an HTML form, in the scope that reads bodies (the
 * API plugin, /mcp). Plain JSON.parse keeps a "__proto__" key as ordinary data (an own property),
 * where a stricter parser would reject a valid lead.
 */
export function registerBodyParsers(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(JSON_MEDIA_TYPE, { parseAs: 'string' }, (request, body, done) => {
    if (bodyIgnored(request)) return done(null, undefined);
    // Checked before parsing: the parse itself is the cost to refuse (docs/reliability.md).
    if (nestedDeeperThan(body as string)) {
      return done(
        apiErrors.invalidJson(
          exampleFor(request),
          `Le corps de la requête imbrique plus de ${MAX_JSON_DEPTH} niveaux d’objets ou de tableaux.`,
        ),
        undefined,
      );
    }
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(apiErrors.invalidJson(exampleFor(request)), undefined);
    }
  });
  scope.addContentTypeParser(FORM_MEDIA_TYPE, { parseAs: 'string' }, (request, body, done) => {
    done(null, bodyIgnored(request) ? undefined : parseFormBody(body as string));
  });
  // Any other media type is read (within the body limit) and dropped: a POST to an endpoint then
  // gets its 415 from requireSupportedMediaType, a wrong method its 405.
  dropOtherBodies(scope);
}

/**
 * Spec 7: a scope that answers whatever the body says (the site, the health checks, the not-found
 * answers) reads every body within the limit and drops it, so a client that sends
 * `Content-Type: application/json` on every request is told the real problem (404, 405).
 */
export function ignoreBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  dropOtherBodies(scope);
}

function dropOtherBodies(scope: FastifyInstance): void {
  scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => {
    done(null, undefined);
  });
}

/** Spec 7: a wrong method is 405 whatever the body says; only a POST has its body read. */
function bodyIgnored(request: FastifyRequest): boolean {
  return request.method !== 'POST';
}

/** A POST with no body and no Content-Type never reaches a parser: refuse it as spec 7 says (415). */
export async function requireSupportedMediaType(request: FastifyRequest): Promise<void> {
  const mediaType = mediaTypeOf(request);
  if (mediaType !== JSON_MEDIA_TYPE && mediaType !== FORM_MEDIA_TYPE) {
    throw apiErrors.unsupportedMediaType(request.headers['content-type']);
  }
}

/**
 * docs/reliability.md, "Hostile input": the deepest nesting a JSON body may have. A lead's body is
 * at most four levels deep (an audit's formData inside a JSON-RPC call's arguments inside params);
 * arrays nested 32,000 deep would cost a parse and a validation walk of tens of milliseconds.
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `text` opens more than `limit` objects or arrays inside one another, read before
 * JSON.parse (one pass, no allocation). Brackets inside strings do not count; malformed JSON is
 * left to JSON.parse, which refuses it anyway.
 */
export function nestedDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
  }
  return false;
}
