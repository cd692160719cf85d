import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { servedAgency } from '../site/index.ts';
import { field, formAlert, formText } from './form-controls.ts';
import { html } from './html.ts';
import { checkProof, proofField, proofProblem } from './reauthentication.ts';
import { tokenHash } from './secrets.ts';
import { newTotpSecret, totpUri, verifyTotp } from './totp.ts';
import type { WorkspaceContext } from './workspace-context.ts';
import { csrfField, sendWorkspacePage } from './workspace-page.ts';

const RECOVERY_CODES = 10;

/**
 * Ten codes of 10 base32 characters (50 bits each), shown once, kept as SHA-256
 * (docs/workspace-security.md).
 */
function recoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () =>
    randomBytes(10)
      .toString('base64url')
      .replace(/[^a-z0-9]/gi, '')
      .toLowerCase()
      .slice(0, 10)
      .padEnd(10, '7'),
  );
}

const ownPage = { config: { workspace: { beforeSecondFactor: true } } };

/**
 * docs/workspace-security.md, "Second factor": each member's own page: set up TOTP (RFC 6238) with
 * any authenticator app, get recovery codes, sign out of every session.
 */
export function registerAccountRoutes(scope: FastifyInstance, context: WorkspaceContext): void {
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    extra: {
      secret?: string;
      error?: string;
      proofError?: string;
      codes?: string[];
      status?: number;
    } = {},
  ) => {
    const account = (await context.store.staff.accountById(request.staff!.id))!;
    const csrf = csrfField(request.csrfToken);
    const secret = extra.secret ?? newTotpSecret();
    const enrol = html`<p>
        ${account.totpRequired ? 'Un administrateur exige la double authentification pour votre compte : activez-la pour continuer.' : 'Protégez votre compte avec un code à 6 chiffres d’une application d’authentification (FreeOTP, Aegis, Google Authenticator…).'}
      </p>
      <ol>
        <li>
          Dans l’application, ajoutez un compte avec cette clé :
          <span class="secret">${secret}</span> (ou le lien
          <a href="${totpUri(secret, account.email, servedAgency().name)}">otpauth</a> sur un téléphone).
        </li>
        <li>Saisissez le code qu’elle affiche.</li>
      </ol>
      ${formAlert(extra.error && 'La double authentification n’est pas activée : corrigez le champ signalé.')}
      <form method="post" action="/equipe/compte/double-authentification" class="lead-form narrow">
        ${csrf}
        <input type="hidden" name="secret" value="${secret}" />
        ${field({ name: 'code', label: 'Code à 6 chiffres', autocomplete: 'one-time-code', inputmode: 'numeric', required: true, error: extra.error })}
        <button type="submit">Activer</button>
      </form>`;
    const codesLeft = account.totpSecret
      ? await context.store.staff.recoveryCodesLeft(account.id)
      : 0;
    const enrolled = html`<p>
        La double authentification est activée. Codes de secours inutilisés : ${codesLeft}.
      </p>
      <form method="post" action="/equipe/compte/codes-de-secours" class="lead-form narrow">
        ${csrf}${proofField(extra.proofError)}
        <button type="submit">Renouveler mes codes de secours</button>
      </form>`;
    const codes = extra.codes
      ? html`<div class="notice" role="status">
          <p>
            Vos codes de secours, chacun utilisable une fois à la place du code de l’application.
            Notez-les maintenant : ils ne seront plus affichés.
          </p>
          <ul class="secret">
            ${extra.codes.map((code) => html`<li>${code}</li>`)}
          </ul>
        </div>`
      : '';
    const body = html`${codes}
      <p>
        Connecté en tant que
        <strong>${account.email}</strong>
        (${account.role === 'admin' ? 'administrateur' : 'membre'}).
      </p>
      <h2>Double authentification</h2>
      ${account.totpSecret ? enrolled : enrol}
      <h2>Sessions</h2>
      <p>
        Vous avez oublié de vous déconnecter sur un autre appareil ? Fermez toutes vos sessions,
        celle-ci comprise.
      </p>
      <form method="post" action="/equipe/deconnexion-partout">
        ${csrf}<button type="submit">Se déconnecter partout</button>
      </form>`;
    return sendWorkspacePage(request, reply, {
      title: 'Mon compte',
      current: 'compte',
      body,
      status: extra.status,
    });
  };

  scope.get('/compte', ownPage, (request, reply) => page(request, reply));

  scope.post('/compte/double-authentification', ownPage, async (request, reply) => {
    const secret = formText(request.body, 'secret');
    const now = context.now();
    const step = /^[A-Z2-7]{32}$/.test(secret)
      ? verifyTotp(secret, formText(request.body, 'code'), now, null)
      : undefined;
    if (step === undefined) {
      return page(request, reply, {
        secret,
        error:
          'Ce code ne correspond pas : vérifiez l’heure du téléphone et saisissez le code affiché maintenant.',
        status: 400,
      });
    }
    const staffId = request.staff!.id;
    // Replacing a second factor already set up needs the current password or code (reauthentication.ts).
    if ((await context.store.staff.accountById(staffId))?.totpSecret) {
      const proof = await checkProof(context, request);
      if (proof !== 'ok') {
        return page(request, reply, { proofError: proofProblem(proof), status: 403 });
      }
    }
    await context.store.staff.updateAccount(
      staffId,
      { totpSecret: secret, totpLastStep: step },
      now,
    );
    const codes = recoveryCodes();
    await context.store.staff.replaceRecoveryCodes(staffId, codes.map(tokenHash));
    await context.recordStaffAction(request.staff!, 'totp-enabled', `staff:${staffId}`);
    return page(request, reply, { codes });
  });

  scope.post('/compte/codes-de-secours', ownPage, async (request, reply) => {
    const proof = await checkProof(context, request);
    if (proof !== 'ok') {
      return page(request, reply, { proofError: proofProblem(proof), status: 403 });
    }
    const codes = recoveryCodes();
    await context.store.staff.replaceRecoveryCodes(request.staff!.id, codes.map(tokenHash));
    await context.recordStaffAction(request.staff!, 'recovery-codes', `staff:${request.staff!.id}`);
    return page(request, reply, { codes });
  });
}
