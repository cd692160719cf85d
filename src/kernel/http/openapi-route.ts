import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../openapi/document.ts';
import { soonAfterListening } from './soon-after-listening.ts';

export function registerOpenApiRoute(app: FastifyInstance, siteUrl: string): void {
  // Built once, as it only changes with the code; not before the first answer, as its error
  // examples run the validators (~80 ms of a start: docs/performance.md, "What a start loads").
  let body: string | undefined;
  const document = () => (body ??= JSON.stringify(buildOpenApiDocument(siteUrl), null, 2));
  soonAfterListening(app, document);
  app.get('/openapi.json', async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(document()),
  );
}
