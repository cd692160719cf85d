import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { field, formAddress, formAlert, formText } from '../staff/index.ts';
import { html, type HtmlValue } from '../staff/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { csrfField, parisTime, scrollingTable, sendWorkspacePage } from '../staff/index.ts';

/** Why an address is on the list; stored as the key. */
export const OPT_OUT_REASONS: Record<string, string> = {
  opposition: 'Opposition de la personne (art. 21)',
  effacement: 'Effacement demandé (art. 17)',
  autre: 'Autre, voir le registre',
  // docs/inbound.md, « Rebonds et plaintes »: added by Brevo's events, not by the team.
  'plainte-spam': 'Signalé comme spam par la personne',
  desinscription: 'Désinscription par le lien d’un e-mail',
};

const PAGE_SIZE = 200;

/**
 * docs/workspace-privacy.md, « Liste d’opposition »: the addresses whose new leads are journaled,
 * flagged and handed to no one. The list holds references only, so it is read by typing an address.
 */
export function registerOptOutRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  const { optOut } = context.store;

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    said: { notice?: HtmlValue; error?: string } = {},
  ) {
    const entries = await optOut.list(PAGE_SIZE);
    const csrf = csrfField(request.csrfToken);
    const rows = entries.map(
      (entry) =>
        html`<tr><td>${parisTime(entry.addedAt)}</td><td>${entry.addedBy}</td><td>${OPT_OUT_REASONS[entry.reason ?? ''] ?? entry.reason ?? '—'}</td><th scope="row" class="secret">${entry.reference.slice(0, 16)}</th><td>${request.staff?.role === 'admin' ? html`<form method="post" action="/equipe/personnes/opposition/retirer">${csrf}<input type="hidden" name="reference" value="${entry.reference}"><button type="submit">Retirer</button></form>` : 'Administrateurs'}</td></tr>`,
    );
    const body = html`<p>Une adresse de cette liste ne reçoit plus rien de l’agence : ses nouvelles demandes sont gardées et signalées dans les prospects, mais aucune n’est transmise (ni notification, ni CRM, ni e-mail à la personne, ni webhook). La liste ne garde que l’empreinte de l’adresse (HMAC-SHA256), jamais l’adresse.</p>
${said.notice ? html`<p class="notice" role="status">${said.notice}</p>` : ''}${formAlert(said.error)}
<form method="post" action="/equipe/personnes/opposition" class="narrow">${csrf}
${field({ name: 'email', label: 'Adresse à ajouter ou à vérifier', type: 'email', autocomplete: 'off', required: true, maxlength: 254, ...(said.error && { error: said.error }) })}
<p><label for="motif">Motif</label><select id="motif" name="motif">${Object.entries(OPT_OUT_REASONS).map(([value, label]) => html`<option value="${value}">${label}</option>`)}</select></p>
<p class="actions"><button type="submit" name="action" value="ajouter">Ajouter à la liste</button> <button type="submit" name="action" value="verifier">Vérifier seulement</button></p></form>
${scrollingTable(
  'Liste d’opposition',
  html`<table><caption>Liste d’opposition : ${entries.length}${entries.length === PAGE_SIZE ? ' (les plus récentes)' : ''}</caption><thead><tr><th scope="col">Ajoutée le</th><th scope="col">Par</th><th scope="col">Motif</th><th scope="col">Empreinte</th><th scope="col">Action</th></tr></thead><tbody>${rows.length ? rows : html`<tr><td colspan="5">Aucune adresse.</td></tr>`}</tbody></table>`,
)}`;
    return sendWorkspacePage(request, reply, {
      title: 'Liste d’opposition',
      current: 'personnes',
      body,
      status: said.error ? 422 : 200,
    });
  }

  scope.get('/personnes/opposition', async (request, reply) => listPage(request, reply));

  scope.post('/personnes/opposition', async (request, reply) => {
    const address = formAddress(request.body);
    if (!address) {
      return listPage(request, reply, { error: 'Saisissez une adresse e-mail complète.' });
    }
    const found = await optOut.find(address);
    if (formText(request.body, 'action') === 'verifier') {
      const notice = found
        ? `Cette adresse est dans la liste depuis le ${parisTime(found.addedAt)}.`
        : 'Cette adresse n’est pas dans la liste.';
      return listPage(request, reply, { notice });
    }
    if (found)
      return listPage(request, reply, { notice: 'Cette adresse était déjà dans la liste.' });
    const staff = request.staff!;
    const reason = formText(request.body, 'motif') || 'autre';
    // Only a reason the page offers: an own key (`toString` is on every object, not in the list).
    if (!Object.hasOwn(OPT_OUT_REASONS, reason)) {
      return listPage(request, reply, { error: 'Choisissez un motif de la liste.' });
    }
    const reference = await optOut.add(address, {
      addedAt: context.now(),
      addedBy: staff.name || staff.email,
      reason,
    });
    await context.recordStaffAction(staff, 'opt-out-add', `person:${reference}`, reason);
    return listPage(request, reply, {
      notice: 'Adresse ajoutée : ses prochaines demandes ne seront transmises à personne.',
    });
  });

  // docs/workspace-privacy.md, « Liste d’opposition »: lifting an opt-out is an admin's decision,
  // checked on the POST itself (a member's session cannot lift one, whatever page it comes from).
  const adminOnly = { config: { workspace: { adminOnly: true } } };
  scope.post('/personnes/opposition/retirer', adminOnly, async (request, reply) => {
    const reference = formText(request.body, 'reference');
    if (await optOut.remove(reference)) {
      await context.recordStaffAction(request.staff!, 'opt-out-remove', `person:${reference}`);
    }
    return reply.redirect('/equipe/personnes/opposition', 303);
  });
}
