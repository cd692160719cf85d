import { frenchCount } from '../../kernel/lead/french-count.ts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { normalizeEmail } from '../../kernel/lead/lead.ts';
import type { StaffAccount } from './staff.ts';
import { field, formAlert, formText } from './form-controls.ts';
import { html } from './html.ts';
import { tokenHash } from './secrets.ts';
import { auditEntry } from './staff-actions.ts';
import { openSession, staffOf, type SessionSettings } from './sessions.ts';
import { clearedCookie, readCookie, sessionCookie, type CookiePolicy } from './session-cookie.ts';
import { throttleKeys, type ThrottleDecision } from './sign-in-throttle.ts';
import { verifyTotp } from './totp.ts';
import type { WorkspaceContext } from './workspace-context.ts';
import { returnPath, SIGN_IN_PATH } from './workspace-guard.ts';
import { workspacePage } from './workspace-page.ts';

/** One message for every refusal: no one learns whether the address has an account. */
const REFUSED = 'Adresse e-mail, mot de passe ou code incorrect.';

interface SignInForm {
  email?: string;
  alert?: string;
  notice?: string;
  back?: string;
}

function signInPage(reply: FastifyReply, status: number, form: SignInForm, usable: boolean) {
  const body = usable
    ? html`${form.notice ? html`<p class="notice" role="status">${form.notice}</p>` : ''}
        ${formAlert(form.alert)}
        <form method="post" action="${SIGN_IN_PATH}" class="lead-form narrow">
          ${form.back ? html`<input type="hidden" name="suite" value="${form.back}" />` : ''}
          ${field({ name: 'email', label: 'Adresse e-mail', type: 'email', autocomplete: 'username', value: form.email ?? '', required: true })}
          ${field({ name: 'password', label: 'Mot de passe', type: 'password', autocomplete: 'current-password', required: true })}
          ${field({ name: 'code', label: 'Code de double authentification', autocomplete: 'one-time-code', help: 'Seulement si elle est activée sur votre compte : les 6 chiffres de votre application, ou un code de secours.' })}
          <button type="submit">Se connecter</button>
        </form>
        <p class="muted">
          Pas encore de compte ? Un administrateur de l’agence vous envoie une invitation. Mot de
          passe oublié ? Demandez-lui une nouvelle invitation.
        </p>`
    : html`<p class="page-alert" role="alert">
        L’espace équipe n’est servi qu’en HTTPS : donnez à SITE_URL une adresse https://
        (docs/workspace-security.md).
      </p>`;
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(workspacePage({ title: 'Connexion', body }).value);
}

/** The second factor of an account that has one: a TOTP code (RFC 6238) or an unused recovery code. */
async function secondFactor(
  context: WorkspaceContext,
  account: StaffAccount,
  code: string,
): Promise<'totp' | 'recovery' | undefined> {
  if (!account.totpSecret) return 'totp';
  const now = context.now();
  const step = verifyTotp(account.totpSecret, code, now, account.totpLastStep);
  // RFC 6238 §5.2: the step is claimed in one statement, so parallel sign-ins with one code get one session.
  if (step !== undefined) {
    return (await context.store.staff.claimTotpStep(account.id, step, now)) ? 'totp' : undefined;
  }
  const recovery = code.replace(/[\s-]/g, '').toLowerCase();
  if (
    recovery.length >= 10 &&
    (await context.store.staff.useRecoveryCode(account.id, tokenHash(recovery), now))
  ) {
    return 'recovery';
  }
  return undefined;
}

const WINDOW_MS = 60_000;

/**
 * docs/workspace-security.md, "Audit trail" (OWASP Logging cheat sheet): a throttled burst is one
 * line per key and minute, with its count, never one line per request.
 */
async function recordThrottled(
  context: WorkspaceContext,
  refusal: Extract<ThrottleDecision, { allowed: false }>,
  now: Date,
) {
  const kind = refusal.key.slice(0, refusal.key.indexOf(':'));
  await context.store.staff.recordRepeated({
    ...auditEntry(null, 'sign-in-throttled', now, null, THROTTLE_KEY_LABELS[kind] ?? null),
    id: `sign-in-throttled:${tokenHash(`${refusal.key} ${Math.floor(now.getTime() / WINDOW_MS)}`)}`,
  });
}

const THROTTLE_KEY_LABELS: Record<string, string> = {
  pair: 'même adresse saisie, même client',
  address: 'même client',
  account: 'même adresse saisie',
};

/**
 * docs/workspace-security.md, "Signing in": one form (address, password, and the second factor's
 * code when the account has one); the same work and the same answer for an unknown address, a wrong
 * password, a disabled account or a wrong code; throttled per account and per client address.
 */
export function registerSignInRoutes(
  scope: FastifyInstance,
  context: WorkspaceContext,
  policy: CookiePolicy,
  settings: SessionSettings,
): void {
  const open = { config: { workspace: { public: true } } };

  scope.get('/connexion', open, async (request, reply) => {
    if (request.staff) return reply.redirect('/equipe', 303);
    const query = request.query as Record<string, unknown>;
    const notice =
      query.bienvenue !== undefined
        ? 'Votre mot de passe est enregistré : connectez-vous.'
        : query.au_revoir !== undefined
          ? 'Vous êtes déconnecté.'
          : undefined;
    return signInPage(reply, 200, { notice, back: returnPath(query.suite) }, policy.usable);
  });

  scope.post('/connexion', open, async (request, reply) => {
    if (!policy.usable) return signInPage(reply, 403, {}, false);
    const email = normalizeEmail(formText(request.body, 'email')).slice(0, 254);
    const password = formText(request.body, 'password').slice(0, 1024);
    const code = formText(request.body, 'code').slice(0, 64);
    const back = returnPath(formText(request.body, 'suite'));
    const keys = throttleKeys(email, request.ip);
    const now = context.now();
    const decision = await context.signInThrottle(keys, now);
    if (!decision.allowed) {
      const seconds = Math.ceil(decision.retryAfterMs / 1000);
      request.log.warn({ waitSeconds: seconds }, 'workspace: sign-in throttled');
      await recordThrottled(context, decision, now);
      reply.header('retry-after', String(seconds));
      return signInPage(
        reply,
        429,
        {
          email,
          back,
          alert: `Trop d’essais : réessayez dans ${frenchCount(seconds, 'seconde')}.`,
        },
        true,
      );
    }
    let account: StaffAccount | undefined;
    let factor: 'totp' | 'recovery' | undefined;
    try {
      account = email ? await context.store.staff.accountByEmail(email) : undefined;
      // Always one scrypt, against a hash made at start when there is no account (secrets.ts).
      const passwordOk = await context.passwords.verify(password, account?.passwordHash ?? null);
      factor =
        passwordOk && account && !account.disabledAt
          ? await secondFactor(context, account, code)
          : undefined;
    } finally {
      await decision.settle(Boolean(account && factor));
    }
    if (!account || !factor) {
      request.log.warn({ throttleKey: keys.address }, 'workspace: sign-in refused');
      // docs/workspace-security.md, "Audit trail": what was typed is never shown (it may be a
      // password, or a sentence meant for the staff who read the trail): an unknown address by its
      // hash only.
      await context.recordStaffAction(
        account ? staffOf(account) : null,
        'sign-in-failed',
        account ? `staff:${account.id}` : null,
        account ? null : `adresse inconnue (empreinte ${tokenHash(email).slice(0, 12)})`,
      );
      return signInPage(reply, 401, { email, back, alert: REFUSED }, true);
    }
    // A session fixed before sign-in is never reused: the old one ends, a new token is made.
    const previous = readCookie(request.headers.cookie, policy.name);
    if (previous) await context.store.staff.deleteSession(tokenHash(previous));
    const token = await openSession(context.store, account.id, now, settings);
    const staff = staffOf(account);
    await context.recordStaffAction(staff, 'sign-in', `staff:${account.id}`);
    if (factor === 'recovery')
      await context.recordStaffAction(staff, 'recovery-code-used', `staff:${account.id}`);
    reply.header('set-cookie', sessionCookie(policy, token, Math.floor(settings.maxMs / 1000)));
    return reply.redirect(back ?? '/equipe', 303);
  });

  scope.post(
    '/deconnexion',
    { config: { workspace: { beforeSecondFactor: true } } },
    async (request, reply) => {
      const token = readCookie(request.headers.cookie, policy.name);
      if (token) await context.store.staff.deleteSession(tokenHash(token));
      await context.recordStaffAction(request.staff!, 'sign-out', `staff:${request.staff!.id}`);
      reply.header('set-cookie', clearedCookie(policy));
      return reply.redirect(`${SIGN_IN_PATH}?au_revoir`, 303);
    },
  );

  scope.post(
    '/deconnexion-partout',
    { config: { workspace: { beforeSecondFactor: true } } },
    async (request, reply) => {
      const ended = await context.store.staff.deleteSessionsOf(request.staff!.id);
      await context.recordStaffAction(
        request.staff!,
        'sign-out-everywhere',
        `staff:${request.staff!.id}`,
        `${ended} session(s)`,
      );
      reply.header('set-cookie', clearedCookie(policy));
      return reply.redirect(`${SIGN_IN_PATH}?au_revoir`, 303);
    },
  );
}
