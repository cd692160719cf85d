import type { FastifyInstance } from 'fastify';
import { html } from './html.ts';
import type { WorkspaceContext } from './workspace-context.ts';
import { workspacePage } from './workspace-page.ts';

/** A placeholder home until the inbox takes `/equipe` (docs/workspace.md). */
export function registerHomeRoute(scope: FastifyInstance, _context: WorkspaceContext): void {
  scope.get('/', async (request, reply) => {
    const body = html`<p>
      Bienvenue, ${request.staff!.name || request.staff!.email}. La liste des prospects arrive ici.
    </p>`;
    return reply.type('text/html; charset=utf-8').send(
      workspacePage({
        title: 'Prospects',
        staff: request.staff,
        csrfToken: request.csrfToken,
        current: 'prospects',
        body,
      }).value,
    );
  });
}
