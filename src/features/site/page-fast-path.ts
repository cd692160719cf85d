import type { FastAnswer, EveryAnswerHeaders } from '../../kernel/http/site/fast-path.ts';
import { REQUEST_ID_HEADER, requestIdFor } from '../../kernel/observability/logging.ts';
import type { SiteFiles } from './site-routes.ts';

/**
 * A GET or HEAD of a public file, answered straight from memory: the answer the Fastify route
 * gives, byte for byte (same table, same headers). Anything else (another method, an unknown path,
 * an encoded path Fastify would decode) goes on to Fastify.
 */
export function pageFastAnswer(files: SiteFiles, everyAnswer: EveryAnswerHeaders): FastAnswer {
  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const url = request.url ?? '';
    const query = url.indexOf('?');
    const choose = files.get(query === -1 ? url : url.slice(0, query));
    if (!choose) return false;
    const { status, representation } = choose(request.headers);
    if (status === 404) return false;
    const head = [REQUEST_ID_HEADER, requestIdFor(request), ...everyAnswer];
    if (status === 304) {
      response.writeHead(304, head.concat(representation.flatNotModified));
      response.end();
    } else {
      // Node leaves the body out of an answer to HEAD; content-length still says its size.
      response.writeHead(status, head.concat(representation.flatHeaders));
      response.end(representation.body);
    }
    return true;
  };
}
