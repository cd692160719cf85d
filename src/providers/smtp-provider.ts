import { RefusedError, UpstreamError } from '../domain/errors.ts';
import type { ProviderMailSettings } from './mail-destinations.ts';
import { MimeMailProvider } from './mime-mail-provider.ts';

/**
 * RFC 5321 4.2.2: 550 mailbox unavailable, 551 user not local, 553 mailbox name not allowed. The
 * same message to the same address would be refused again; other codes may pass later.
 */
const REFUSED_FOR_GOOD = new Set([550, 551, 553]);

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
        const code = (error as { responseCode?: unknown }).responseCode;
        const Failure =
          typeof code === 'number' && REFUSED_FOR_GOOD.has(code) ? RefusedError : UpstreamError;
        throw new Failure(`smtp refused the ${role} e-mail`, { cause: error });
      }
    },
    { close: async () => (await transport).close() },
  );
}
