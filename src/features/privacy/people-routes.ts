import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forgetPerson } from './forget-person.ts';
import { emailOf, normalizeEmail } from '../../kernel/lead/lead.ts';
import { personReport } from './person-report.ts';
import { field, formAddress, formAlert, formText } from '../staff/index.ts';
import { html, type HtmlValue } from '../staff/index.ts';
import { kindLabel } from '../inbox/index.ts';
import { countsOf, personFileView, rowCounts } from './person-views.ts';
import { checkProof, proofField, proofProblem } from '../staff/index.ts';
import type { WorkspaceContext } from '../staff/index.ts';
import { csrfField, parisTime, sendWorkspacePage } from '../staff/index.ts';

/** The address goes in a form's body, never a URL (docs/workspace-security.md, "Every page"). */
function personForm(action: string, csrf: HtmlValue, address: string, inside: HtmlValue) {
  return html`<form method="post" action="${action}">${csrf}<input type="hidden" name="email" value="${address}">${inside}</form>`;
}

/**
 * docs/workspace-privacy.md, « Personnes et RGPD »: find a person by address, see, download and
 * erase all the journal holds (the domain code of `leadgate people show` and `people forget`).
 * Every view, download and erasure is in the audit trail under the address's reference.
 */
export function registerPeopleRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  const { store } = context;

  function searchPage(request: FastifyRequest, reply: FastifyReply, error?: string) {
    const body = html`<p><a href="/equipe/personnes/registre">Registre des demandes RGPD</a> · <a href="/equipe/personnes/opposition">Liste d’opposition</a></p>
${formAlert(error)}
<form method="post" action="/equipe/personnes" class="narrow">${csrfField(request.csrfToken)}
${field({ name: 'email', label: 'Adresse e-mail de la personne', type: 'email', autocomplete: 'off', required: true, maxlength: 254, ...(error && { error }) })}
<p><button type="submit">Voir ce qui est gardé</button></p></form>`;
    return sendWorkspacePage(request, reply, {
      title: 'Personnes',
      current: 'personnes',
      body,
      status: error ? 422 : 200,
    });
  }

  async function personPage(request: FastifyRequest, reply: FastifyReply, address: string) {
    const [file, optOut] = await Promise.all([
      store.people.show(address),
      store.optOut.find(address),
    ]);
    await context.recordStaffAction(request.staff!, 'view-person', `person:${file.reference}`);
    const csrf = csrfField(request.csrfToken);
    const held = file.leads.length > 0 || Object.keys(file.related).length > 0;
    const body = html`${held ? '' : html`<p class="notice">Le journal ne garde rien de cette adresse.</p>`}
${personFileView(file, optOut)}
<h2>Actions</h2>
<div class="actions">
${personForm('/equipe/personnes/telecharger', csrf, address, html`<button type="submit">Télécharger (JSON)</button>`)}
${request.staff!.role === 'admin' ? personForm('/equipe/personnes/effacement', csrf, address, html`<button type="submit">Effacer…</button>`) : ''}
${optOut ? '' : personForm('/equipe/personnes/opposition', csrf, address, html`<input type="hidden" name="motif" value="opposition"><button type="submit">Ajouter à la liste d’opposition</button>`)}
</div>`;
    return sendWorkspacePage(request, reply, { title: address, current: 'personnes', body });
  }

  scope.get('/personnes', async (request, reply) => searchPage(request, reply));

  scope.post('/personnes', async (request, reply) => {
    const address = formAddress(request.body);
    if (!address) return searchPage(request, reply, 'Saisissez une adresse e-mail complète.');
    return personPage(request, reply, address);
  });

  // The lead page's link: the lead's id in the address, never the person's e-mail.
  scope.get('/prospects/:id/personne', async (request, reply) => {
    const entry = await store.find((request.params as { id: string }).id);
    if (!entry)
      return searchPage(request, reply, 'Ce prospect n’existe plus : cherchez son adresse.');
    return personPage(request, reply, normalizeEmail(emailOf(entry.lead)));
  });

  scope.get('/personnes/registre/:id/personne', async (request, reply) => {
    const entry = await store.privacyRequests.find((request.params as { id: string }).id);
    if (!entry?.address) {
      return searchPage(request, reply, 'L’adresse de cette demande a été effacée.');
    }
    return personPage(request, reply, entry.address);
  });

  // RGPD art. 15 and 20: the same JSON as `leadgate people show`.
  scope.post('/personnes/telecharger', async (request, reply) => {
    const address = formAddress(request.body);
    if (!address) return searchPage(request, reply, 'Saisissez une adresse e-mail complète.');
    const file = await store.people.show(address);
    await context.recordStaffAction(request.staff!, 'download-person', `person:${file.reference}`);
    return reply
      .type('application/json; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="personne-${file.reference.slice(0, 12)}.json"`,
      )
      .send(`${personReport(address, file)}\n`);
  });

  // The confirmation step: says what the erasure deletes, changes nothing.
  async function confirmationPage(
    request: FastifyRequest,
    reply: FastifyReply,
    address: string,
    proofError?: string,
  ) {
    const [file, optOut] = await Promise.all([
      store.people.show(address),
      store.optOut.find(address),
    ]);
    const counts = { ...(file.leads.length && { leads: file.leads.length }), ...countsOf(file) };
    const body = html`<p class="notice">L’effacement est définitif (RGPD art. 17). Seront supprimés :</p>
${file.leads.length ? html`<ul>${file.leads.map(({ lead }) => html`<li>${kindLabel(lead.kind)} du ${parisTime(lead.receivedAt)}</li>`)}</ul>` : html`<p>Aucune demande.</p>`}
${rowCounts(counts)}
<p>Les copies des e-mails de ces demandes chez ${context.provider.name} sont effacées aussi. Les lignes du registre des demandes RGPD ne gardent que l’empreinte de l’adresse et les dates.</p>
${personForm(
  '/equipe/personnes/effacement/confirmer',
  csrfField(request.csrfToken),
  address,
  html`${optOut ? '' : html`<p><input type="checkbox" id="opposition" name="opposition" value="1"> <label for="opposition">Ajouter aussi l’adresse à la liste d’opposition : ses prochaines demandes seront gardées, signalées, et transmises à personne</label></p>`}
${proofField(proofError)}
<p><button type="submit">Effacer définitivement</button> <a href="/equipe/personnes">Annuler</a></p>`,
)}`;
    return sendWorkspacePage(request, reply, {
      title: `Effacer ${address}\u202f?`,
      current: 'personnes',
      body,
      status: proofError ? 403 : 200,
    });
  }

  // docs/workspace-privacy.md, « Personnes et RGPD »: erasing is for admins, who confirm it with
  // their password or a current code in the POST that erases (a stolen session alone erases
  // nobody).
  const adminOnly = { config: { workspace: { adminOnly: true } } };
  scope.post('/personnes/effacement', adminOnly, async (request, reply) => {
    const address = formAddress(request.body);
    if (!address) return searchPage(request, reply, 'Saisissez une adresse e-mail complète.');
    return confirmationPage(request, reply, address);
  });

  scope.post('/personnes/effacement/confirmer', adminOnly, async (request, reply) => {
    const address = formAddress(request.body);
    if (!address) return searchPage(request, reply, 'Saisissez une adresse e-mail complète.');
    const proof = await checkProof(context, request);
    if (proof !== 'ok') return confirmationPage(request, reply, address, proofProblem(proof));
    const staff = request.staff!;
    if (formText(request.body, 'opposition') === '1') {
      const reference = await store.optOut.add(address, {
        addedAt: context.now(),
        addedBy: staff.name || staff.email,
        reason: 'effacement',
      });
      await context.recordStaffAction(staff, 'opt-out-add', `person:${reference}`, 'effacement');
    }
    const outcome = await forgetPerson({
      store,
      provider: context.provider,
      address,
      now: context.now(),
      timeoutMs: context.config.mail.timeoutMs,
    });
    await context.recordStaffAction(
      staff,
      'erase',
      `person:${outcome.reference}`,
      `${outcome.leadIds.length} demande(s)${outcome.providerError ? ' ; prestataire à relancer' : ''}`,
    );
    const body = html`<p>${outcome.leadIds.length} demande(s) effacée(s) ; seule l’empreinte salée de l’adresse et la date restent.</p>
${Object.keys(outcome.deleted).length ? rowCounts(outcome.deleted) : ''}
${
  outcome.provider
    ? html`<p>${outcome.provider}</p>`
    : html`<div class="page-alert" role="alert"><p>${context.provider.name} n’a pas pu effacer ce qu’il garde (${outcome.providerError?.message ?? ''}).</p></div>
${personForm('/equipe/personnes/effacement/confirmer', csrfField(request.csrfToken), address, html`${proofField()}<p><button type="submit">Relancer l’effacement</button></p>`)}`
}
<p><a href="/equipe/personnes">Chercher une autre personne</a></p>`;
    return sendWorkspacePage(request, reply, {
      title: 'Personne effacée',
      current: 'personnes',
      body,
    });
  });
}
