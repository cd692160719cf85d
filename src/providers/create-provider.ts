import { join } from 'node:path';
import type { Config } from '../config.ts';
import { createBrevoProvider } from './brevo-provider.ts';
import { MisconfiguredProvider } from './misconfigured-provider.ts';
import { createOutboxProvider } from './outbox-provider.ts';
import type { Provider } from './provider.ts';
import { createSmtpProvider } from './smtp-provider.ts';

/** The only place that branches on MAIL_PROVIDER. */
export function createProvider(config: Config): Provider {
  const { mail } = config;
  const settings = { from: mail.from, agencyEmail: mail.agencyEmail, siteUrl: config.siteUrl };
  switch (mail.provider) {
    case 'outbox':
      return createOutboxProvider(join(config.dataDir, 'outbox'), settings);
    case 'smtp':
      return mail.smtpUrl
        ? createSmtpProvider(mail.smtpUrl, settings, mail.timeoutMs)
        : new MisconfiguredProvider('smtp', 'SMTP_URL is not set');
    case 'brevo':
      return mail.brevo.apiKey
        ? createBrevoProvider(config, mail.brevo.apiKey)
        : new MisconfiguredProvider('brevo', 'BREVO_API_KEY is not set');
  }
}
