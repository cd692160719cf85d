import type { FastifyInstance } from 'fastify';
import { html } from './html.ts';
import { STAFF_ACTIONS, staffActionLabel } from './staff-actions.ts';
import type { WorkspaceContext } from './workspace-context.ts';
import { cell, parisTime, sendWorkspacePage } from './workspace-page.ts';
import { auditWords } from './audit-targets.ts';

const PAGE_SIZE = 100;

/**
 * docs/workspace-security.md, "Audit trail": the admins' view of who did what and when, newest
 * first, a hundred lines a page, filtered by action; kept STAFF_AUDIT_RETENTION_DAYS.
 */
export function registerJournalRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  scope.get('/journal', { config: { workspace: { adminOnly: true } } }, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const action =
      typeof query.action === 'string' && Object.hasOwn(STAFF_ACTIONS, query.action)
        ? query.action
        : undefined;
    const before =
      typeof query.avant === 'string' && !Number.isNaN(Date.parse(query.avant))
        ? new Date(query.avant)
        : undefined;
    const entries = await context.store.staff.auditTrail({ limit: PAGE_SIZE, before, action });
    const words = await auditWords(context, entries);
    const rows = entries.map(
      (entry) =>
        html`<tr>
          <th scope="row">${staffActionLabel(entry.action)}</th>
          ${cell('Sur', words.target(entry))}
          ${cell(
            'Quand',
            html`<time datetime="${entry.at.toISOString()}">${parisTime(entry.at)}</time>`,
          )}
          ${cell('Qui', entry.actor)}
          ${cell(
            'Détail',
            `${words.detail(entry)}${(entry.repeats ?? 1) > 1 ? ` (${entry.repeats} fois)` : ''}`,
          )}
        </tr>`,
    );
    const options = Object.entries(STAFF_ACTIONS).map(
      ([value, label]) =>
        html`<option value="${value}" ${value === action ? html` selected` : ''}>${label}</option>`,
    );
    const last = entries.at(-1);
    const next =
      entries.length === PAGE_SIZE && last
        ? html`<p>
            <a
              href="/equipe/journal?${new URLSearchParams({ ...(action && { action }), avant: last.at.toISOString() }).toString()}"
              >Lignes plus anciennes</a
            >
          </p>`
        : '';
    const body = html`<p>
        Chaque action de l’équipe, gardée ${context.config.workspace.auditRetentionDays} jours puis
        effacée.
      </p>
      <form method="get" action="/equipe/journal" class="field-row">
        <div class="field">
          <label for="filtre-action">Action</label>
          <select id="filtre-action" name="action">
            <option value="">Toutes</option>
            ${options}
          </select>
        </div>
        <div class="field"><button type="submit">Filtrer</button></div>
      </form>
      <div class="table-scroll card-table" role="region" aria-label="Journal d’activité" tabindex="0">
        <table>
          <caption>
            Journal d’activité${action ? ` : ${staffActionLabel(action)}` : ''}, les plus récentes
            d’abord
          </caption>
          <thead>
            <tr>
              <th scope="col">Action</th>
              <th scope="col">Sur</th>
              <th scope="col">Quand (heure de Paris)</th>
              <th scope="col">Qui</th>
              <th scope="col">Détail</th>
            </tr>
          </thead>
          <tbody>
            ${
              rows.length
                ? rows
                : html`<tr>
                    <td colspan="5">Aucune action enregistrée.</td>
                  </tr>`
            }
          </tbody>
        </table>
      </div>
      ${next}`;
    return sendWorkspacePage(request, reply, {
      title: 'Journal d’activité',
      current: 'journal',
      body,
    });
  });
}
