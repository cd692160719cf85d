import type { FastifyInstance } from 'fastify';
import type { StaffAccount } from './staff.ts';
import { field, formAlert, formText } from './form-controls.ts';
import { html, type HtmlValue } from './html.ts';
import { inviteStaff, isAddress } from './invitations.ts';
import type { Staff, WorkspaceContext } from './workspace-context.ts';
import { csrfField, parisTime, sendWorkspacePage } from './workspace-page.ts';

const adminOnly = { config: { workspace: { adminOnly: true } } };

function state(account: StaffAccount): string {
  if (account.disabledAt) return `Désactivé le ${parisTime(account.disabledAt)}`;
  return account.passwordHash ? 'Actif' : 'Invitation en attente';
}

function secondFactor(account: StaffAccount): string {
  if (account.totpSecret) return 'Activée';
  return account.totpRequired ? 'Exigée, pas encore activée' : 'Non';
}

function accountActions(
  account: StaffAccount,
  selfId: string,
  csrf: string | undefined,
): HtmlValue {
  if (account.id === selfId) return html`<span class="muted">Vous</span>`;
  const action = (path: string, label: string) =>
    html`<form method="post" action="/equipe/equipe/${account.id}/${path}" class="inline-form">
      ${csrfField(csrf)}<button type="submit" class="link-button">
        ${label}<span class="visually-hidden"> : ${account.email}</span>
      </button>
    </form>`;
  return html`<div class="actions">
    ${account.disabledAt ? action('reactiver', 'Réactiver') : action('desactiver', 'Désactiver')}
    ${account.totpRequired ? '' : action('exiger-2fa', 'Exiger la double authentification')}
    ${action('inviter', account.passwordHash ? 'Nouvelle invitation (mot de passe oublié)' : 'Nouvelle invitation')}
  </div>`;
}

/**
 * docs/workspace-security.md, "Accounts": admins see the team, invite a colleague (a single-use
 * link shown once), disable an account (its sessions end at once) or re-enable it, and demand a
 * second factor.
 */
export function registerTeamRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  const teamPage = async (
    request: Parameters<typeof sendWorkspacePage>[0],
    reply: Parameters<typeof sendWorkspacePage>[1],
    extra: {
      invited?: { email: string; link: string };
      error?: string;
      email?: string;
      status?: number;
    } = {},
  ) => {
    const accounts = await context.store.staff.accounts();
    const rows = accounts.map(
      (account) =>
        html`<tr>
          <th scope="row">${account.name || '—'}</th>
          <td>${account.email}</td>
          <td>${account.role === 'admin' ? 'Administrateur' : 'Membre'}</td>
          <td>${state(account)}</td>
          <td>${secondFactor(account)}</td>
          <td>${accountActions(account, request.staff!.id, request.csrfToken)}</td>
        </tr>`,
    );
    const body = html`${
      extra.invited
        ? html`<div class="notice" role="status">
              <p>
                Invitation créée pour <strong>${extra.invited.email}</strong>. Envoyez-lui ce lien ;
                il sert une seule fois, pendant 48 heures, et ne sera plus affiché :
              </p>
              <p class="secret">${extra.invited.link}</p>
            </div>`
        : ''
    }
      <div class="table-scroll" role="region" aria-label="Comptes de l’équipe" tabindex="0">
        <table>
          <caption>
            Les comptes de l’espace équipe
          </caption>
          <thead>
            <tr>
              <th scope="col">Nom</th>
              <th scope="col">Adresse e-mail</th>
              <th scope="col">Rôle</th>
              <th scope="col">État</th>
              <th scope="col">Double authentification</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
      </div>
      <h2 id="inviter">Inviter un collègue</h2>
      ${formAlert(extra.error && 'L’invitation n’est pas créée : corrigez le champ signalé.')}
      <form method="post" action="/equipe/equipe" class="lead-form narrow">
        ${csrfField(request.csrfToken)}
        ${field({ name: 'email', label: 'Adresse e-mail', type: 'email', autocomplete: 'off', value: extra.email ?? '', required: true, error: extra.error })}
        <fieldset>
          <legend>Rôle</legend>
          <div class="choice">
            <input type="radio" id="role-membre" name="role" value="member" checked /><label
              for="role-membre"
              >Membre : traite les demandes</label
            >
          </div>
          <div class="choice">
            <input type="radio" id="role-admin" name="role" value="admin" /><label for="role-admin"
              >Administrateur : gère aussi l’équipe et voit le journal d’activité</label
            >
          </div>
        </fieldset>
        <button type="submit">Créer le lien d’invitation</button>
      </form>`;
    return sendWorkspacePage(request, reply, {
      title: 'Équipe',
      current: 'equipe',
      body,
      status: extra.status,
    });
  };

  scope.get('/equipe', adminOnly, (request, reply) => teamPage(request, reply));

  scope.post('/equipe', adminOnly, async (request, reply) => {
    const email = formText(request.body, 'email').trim();
    if (!isAddress(email)) {
      return teamPage(request, reply, {
        email,
        error: 'Saisissez une adresse e-mail complète, par exemple prenom@agence.fr.',
        status: 400,
      });
    }
    const role = formText(request.body, 'role') === 'admin' ? 'admin' : 'member';
    const invitation = await inviteStaff(context.store, {
      email,
      role,
      siteUrl: context.config.siteUrl,
      now: context.now(),
      invitedBy: request.staff!.id,
    });
    await context.recordStaffAction(request.staff!, 'invite', `staff:${invitation.staffId}`, role);
    return teamPage(request, reply, { invited: invitation });
  });

  const onAccount = (
    path: string,
    act: (
      account: StaffAccount,
      staff: Staff,
    ) => Promise<{ invited?: { email: string; link: string } } | void>,
  ) =>
    scope.post<{ Params: { id: string } }>(
      `/equipe/:id/${path}`,
      adminOnly,
      async (request, reply) => {
        const account = await context.store.staff.accountById(request.params.id);
        if (!account || account.id === request.staff!.id)
          return reply.redirect('/equipe/equipe', 303);
        const shown = await act(account, request.staff!);
        if (shown?.invited) return teamPage(request, reply, shown);
        return reply.redirect('/equipe/equipe', 303);
      },
    );

  onAccount('desactiver', async (account, staff) => {
    const now = context.now();
    await context.store.staff.updateAccount(account.id, { disabledAt: now }, now);
    const ended = await context.store.staff.deleteSessionsOf(account.id);
    await context.recordStaffAction(
      staff,
      'disable',
      `staff:${account.id}`,
      `${ended} session(s) fermée(s)`,
    );
  });
  onAccount('reactiver', async (account, staff) => {
    await context.store.staff.updateAccount(account.id, { disabledAt: null }, context.now());
    await context.recordStaffAction(staff, 'enable', `staff:${account.id}`);
  });
  onAccount('exiger-2fa', async (account, staff) => {
    await context.store.staff.updateAccount(account.id, { totpRequired: true }, context.now());
    await context.recordStaffAction(staff, 'require-totp', `staff:${account.id}`);
  });
  onAccount('inviter', async (account, staff) => {
    const invitation = await inviteStaff(context.store, {
      email: account.email,
      role: account.role,
      siteUrl: context.config.siteUrl,
      now: context.now(),
      invitedBy: staff.id,
    });
    await context.recordStaffAction(staff, 'invite', `staff:${account.id}`, account.role);
    return { invited: invitation };
  });
}
