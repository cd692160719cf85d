import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { REQUEST_ID_HEADER, requestIdFor } from './logging.ts';
import type { SiteFiles } from './site-routes.ts';

/**
 * Answers a GET or HEAD of a public file straight from memory, before Fastify sees the request:
 * Fastify's per-request work (request and reply objects, hooks, a child logger) cost half the
 * throughput of a page against nginx (bench/RESULTS.md, docs/performance.md). The answer is the one
 * the Fastify route gives, byte for byte (same table, same headers); anything else (another method,
 * an unknown path, an encoded path Fastify would decode) goes to Fastify. Returns whether it answered.
 */
function answerFromMemory(
  files: SiteFiles,
  everyAnswer: readonly string[],
  request: IncomingMessage,
  response: ServerResponse,
): boolean {
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
}

export interface PageFastPath {
  /** Fastify's `serverFactory` option: the HTTP server, with the fast path in front of Fastify. */
  serverFactory: FastifyServerFactory;
  /** Starts answering from `files` (once the site is loaded); `undefined` hands everything to Fastify. */
  serve(files: SiteFiles | undefined): void;
}

/** `everyAnswer`: headers Fastify's hooks add to every answer (CORS), as a flat list. */
export function createPageFastPath(everyAnswer: readonly string[]): PageFastPath {
  let files: SiteFiles | undefined;
  return {
    serve: (next) => {
      files = next;
    },
    serverFactory: (handler, options) => {
      const server = createServer(options.http ?? {}, (request, response) => {
        if (!files || !answerFromMemory(files, everyAnswer, request, response))
          handler(request, response);
      });
      // What Fastify does to a server it creates itself (fastify/lib/server.js), which a factory replaces.
      server.keepAliveTimeout = options.keepAliveTimeout as number;
      server.requestTimeout = options.requestTimeout as number;
      server.setTimeout(options.connectionTimeout as number);
      return server;
    },
  };
}
