import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { FastifyServerFactory } from 'fastify';

/**
 * Answers a request before Fastify sees it, the same answer byte for byte as Fastify's route would
 * give, or returns false to hand it to Fastify. Fastify's per-request work (request and reply
 * objects, hooks, a child logger) costs half the throughput of a page or a refusal
 * (docs/performance.md): what can be answered from precomputed headers and bodies is answered here.
 */
export type FastAnswer = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface FastPath {
  /** Fastify's `serverFactory` option: the HTTP server, with the fast answers in front of Fastify. */
  serverFactory: FastifyServerFactory;
  /** The answers tried, in order, before Fastify; none hands everything to Fastify. */
  answerWith(answers: readonly FastAnswer[]): void;
}

export function createFastPath(): FastPath {
  let answers: readonly FastAnswer[] = [];
  return {
    answerWith: (next) => {
      answers = next;
    },
    serverFactory: (handler, options) => {
      const server = createServer(options.http ?? {}, (request, response) => {
        for (const answer of answers) if (answer(request, response)) return;
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

/** Headers every answer carries from the app's hooks (nosniff, CORS), as a flat list. */
export type EveryAnswerHeaders = readonly string[];
