import type { FastifyInstance, FastifyReply } from 'fastify';
import { field, formAlert, formText } from './form-controls.ts';
import { html } from './html.ts';
import { INVITATION_PARAMETER, INVITATION_PATH } from './invitations.ts';
import { PASSWORD_LENGTH, passwordProblem, tokenHash } from './secrets.ts';
import { staffOf } from './sessions.ts';
import type { WorkspaceContext } from './workspace-context.ts';
import { SIGN_IN_PATH } from './workspace-guard.ts';
import { workspacePage } from './workspace-page.ts';

const GONE =
  'Ce lien d’invitation n’est plus valable : il a déjà servi ou a plus de 48 heures. Demandez une nouvelle invitation à un administrateur.';

function gone(reply: FastifyReply) {
  return reply
    .code(410)
    .type('text/html; charset=utf-8')
    .send(workspacePage({ title: 'Invitation expirée', body: html`<p>${GONE}</p>` }).value);
}

function passwordForm(
  reply: FastifyReply,
  status: number,
  options: { token: string; email: string; name: string; error?: string },
) {
  const body = html`<p>
      Bienvenue dans l’espace équipe. Choisissez votre mot de passe pour
      <strong>${options.email}</strong> : ${PASSWORD_LENGTH.min} à ${PASSWORD_LENGTH.max} caractères
      ; une phrase de plusieurs mots est le plus sûr.
    </p>
    ${formAlert(options.error && 'Le mot de passe n’est pas enregistré : corrigez le champ signalé.')}
    <form method="post" action="${INVITATION_PATH}" class="lead-form narrow">
      <input type="hidden" name="${INVITATION_PARAMETER}" value="${options.token}" />
      <input type="text" name="username" value="${options.email}" autocomplete="username" hidden />
      ${field({ name: 'name', label: 'Votre nom', autocomplete: 'name', value: options.name, maxlength: 100, help: 'Tel que vos collègues le verront dans le journal et les attributions.' })}
      ${field({ name: 'password', label: 'Mot de passe', type: 'password', autocomplete: 'new-password', required: true, minlength: PASSWORD_LENGTH.min, maxlength: PASSWORD_LENGTH.max, error: options.error })}
      ${field({ name: 'confirmation', label: 'Le même mot de passe, encore', type: 'password', autocomplete: 'new-password', required: true })}
      <button type="submit">Enregistrer mon mot de passe</button>
    </form>`;
  return reply
    .code(status)
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(workspacePage({ title: 'Choisir votre mot de passe', body }).value);
}

/**
 * docs/workspace-security.md, "Accounts": the single-use invitation link opens a form that sets the
 * password; the link is spent only when a valid password is saved. GET never changes anything.
 */
export function registerInvitationRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  const open = { config: { workspace: { public: true } } };

  scope.get('/invitation', open, async (request, reply) => {
    const token = String((request.query as Record<string, unknown>)[INVITATION_PARAMETER] ?? '');
    const staffId = token
      ? await context.store.staff.invitation(tokenHash(token), context.now())
      : undefined;
    const account = staffId && (await context.store.staff.accountById(staffId));
    if (!account || account.disabledAt) return gone(reply);
    return passwordForm(reply, 200, { token, email: account.email, name: account.name });
  });

  scope.post('/invitation', open, async (request, reply) => {
    const token = formText(request.body, INVITATION_PARAMETER);
    const now = context.now();
    const staffId = token ? await context.store.staff.invitation(tokenHash(token), now) : undefined;
    const account = staffId && (await context.store.staff.accountById(staffId));
    if (!account || account.disabledAt) return gone(reply);
    const name = formText(request.body, 'name').trim().slice(0, 100);
    const password = formText(request.body, 'password');
    const error = passwordProblem(password, formText(request.body, 'confirmation'));
    if (error) return passwordForm(reply, 400, { token, email: account.email, name, error });
    const passwordHash = await context.passwords.hash(password);
    if (!(await context.store.staff.useInvitation(tokenHash(token), now))) return gone(reply);
    await context.store.staff.updateAccount(
      account.id,
      { passwordHash, ...(name && { name }) },
      now,
    );
    // A reset password ends every session opened with the old one.
    await context.store.staff.deleteSessionsOf(account.id);
    await context.recordStaffAction(
      staffOf({ ...account, name: name || account.name }),
      'password-set',
      `staff:${account.id}`,
    );
    return reply.redirect(`${SIGN_IN_PATH}?bienvenue`, 303);
  });
}
