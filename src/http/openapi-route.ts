import type { FastifyInstance } from 'fastify';
import { buildOpenApiDocument } from '../openapi/document.ts';

export function registerOpenApiRoute(app: FastifyInstance, siteUrl: string): void {
  // Built once at start: it only changes with the code.
  const body = JSON.stringify(buildOpenApiDocument(siteUrl), null, 2);
  app.get('/openapi.json', async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(body),
  );
}
