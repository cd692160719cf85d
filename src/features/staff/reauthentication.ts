import type { FastifyRequest } from 'fastify';
import { field, formText } from './form-controls.ts';
import type { SafeHtml } from './html.ts';
import { throttleKeys } from './sign-in-throttle.ts';
import { verifyTotp } from './totp.ts';
import type { WorkspaceContext } from './workspace-context.ts';

/**
 * The field every re-authenticated form carries (docs/workspace-security.md, "Re-authentication").
 */
export const PROOF_FIELD = 'preuve';

export function proofField(error?: string): SafeHtml {
  return field({
    name: PROOF_FIELD,
    label: 'Votre mot de passe, ou un code de votre application',
    type: 'password',
    autocomplete: 'current-password',
    required: true,
    ...(error && { error }),
  });
}

export type Proof = 'ok' | 'wrong' | 'throttled';

/**
 * docs/workspace-security.md, "Re-authentication" (OWASP ASVS 3.7.1): a change that a stolen
 * session must not make alone (replacing the second factor, new recovery codes, an erasure) asks
 * the member's current password or a current TOTP code in the POST itself. Counted by the sign-in
 * throttle, so a session cannot be used to guess the password either.
 */
export async function checkProof(
  context: WorkspaceContext,
  request: FastifyRequest,
): Promise<Proof> {
  const staff = request.staff!;
  const proof = formText(request.body, PROOF_FIELD).slice(0, 1024);
  const now = context.now();
  const decision = await context.signInThrottle(throttleKeys(staff.email, request.ip), now);
  if (!decision.allowed) return 'throttled';
  let proved = false;
  try {
    const account = await context.store.staff.accountById(staff.id);
    if (account?.totpSecret && /^\d{6}$/.test(proof.replace(/\s/g, ''))) {
      const step = verifyTotp(account.totpSecret, proof, now, account.totpLastStep);
      proved =
        step !== undefined && (await context.store.staff.claimTotpStep(account.id, step, now));
    } else {
      proved = await context.passwords.verify(proof, account?.passwordHash ?? null);
    }
  } finally {
    await decision.settle(proved);
  }
  if (!proved)
    await context.recordStaffAction(staff, 'reauthentication-failed', `staff:${staff.id}`);
  return proved ? 'ok' : 'wrong';
}

export function proofProblem(proof: Exclude<Proof, 'ok'>): string {
  return proof === 'throttled'
    ? 'Trop d’essais : réessayez dans quelques minutes.'
    : 'Ce mot de passe ou ce code ne correspond pas à votre compte.';
}
