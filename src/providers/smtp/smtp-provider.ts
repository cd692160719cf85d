import {
  MisconfiguredError,
  RefusedError,
  UnreachableError,
  UpstreamError,
} from '../../kernel/lead/errors.ts';
import type { ProviderMailSettings } from '../mail-destinations.ts';
import { MimeMailProvider } from '../mime-mail-provider.ts';

/**
 * RFC 5321 4.2.2: 550 mailbox unavailable, 551 user not local, 553 mailbox name not allowed. The
 * same message to the same address would be refused again; other codes may pass later.
 */
const REFUSED_FOR_GOOD = new Set([550, 551, 553]);
/** RFC 3463: 5.7.x is security or policy (relaying denied, authentication required), not the address. */
const POLICY = /\b5\.7\.\d+\b|relay|authenticat/i;

interface SmtpFailure {
  responseCode?: unknown;
  response?: unknown;
  command?: unknown;
  code?: unknown;
}

/**
 * docs/delivery.md, « What the providers' answers mean »: a recipient refused for good is the
 * visitor's address (RefusedError); a login, a relay or a sender refused is SMTP_URL or MAIL_FROM to
 * fix (MisconfiguredError, retried and alerted once); anything else may pass later (UpstreamError).
 */
function smtpFailure(role: string, error: unknown): Error {
  const { responseCode, response, command, code } = error as SmtpFailure;
  const said = typeof response === 'string' ? response : (error as Error).message;
  const message = `smtp refused the ${role} e-mail`;
  const setting = (cause: string, fix: string) =>
    new MisconfiguredError(message, { cause: `smtp:${cause}`, fix, said }, { cause: error });
  if (code === 'EAUTH' || responseCode === 530 || responseCode === 535) {
    return setting('auth', 'SMTP_URL : le serveur refuse l’identifiant ou le mot de passe');
  }
  if (typeof responseCode === 'number' && responseCode >= 500 && POLICY.test(said)) {
    return setting(
      'relay',
      'SMTP_URL : le serveur refuse de relayer ces e-mails (authentification ou autorisation d’envoi à revoir)',
    );
  }
  if (typeof responseCode === 'number' && responseCode >= 500 && command === 'MAIL FROM') {
    return setting('sender', 'MAIL_FROM : le serveur SMTP refuse cet expéditeur');
  }
  if (typeof responseCode === 'number' && REFUSED_FOR_GOOD.has(responseCode)) {
    return new RefusedError(message, { cause: error });
  }
  // No SMTP answer at all (refused connection, timeout): the server, not this message.
  const Failure = typeof responseCode === 'number' ? UpstreamError : UnreachableError;
  return new Failure(message, { cause: error });
}

/** nodemailer's SMTP transport carries the message composed by leadgate as it is (`raw`). */
export function createSmtpProvider(
  smtpUrl: string,
  settings: ProviderMailSettings,
  timeoutMs: number,
) {
  // docs/performance.md (starts): nodemailer is loaded only with MAIL_PROVIDER=smtp, from here.
  const transport = import('nodemailer').then(({ default: nodemailer }) =>
    nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    }),
  );
  return new MimeMailProvider(
    'smtp',
    settings,
    async ({ raw, envelope, role }) => {
      const mailer = await transport;
      try {
        await mailer.sendMail({ envelope: { from: envelope.from, to: [envelope.to] }, raw });
      } catch (error) {
        throw smtpFailure(role, error);
      }
    },
    { close: async () => (await transport).close(), reachedThrough: 'SMTP_URL' },
  );
}
