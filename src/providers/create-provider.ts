import { join } from 'node:path';
import { required, type Config } from '../kernel/config.ts';
import { parseBusinessHours } from '../features/inbox/index.ts';
import { createNewsletterLinks } from '../features/newsletter/newsletter-links.ts';
import type { Provider } from '../features/delivery/provider.ts';
import type { MailIdentity } from '../kernel/mail/mail-identity.ts';
import type { Store } from '../kernel/journal/store.ts';
import { withAlertWebhook } from './webhooks/alert-webhook.ts';
import { createBrevoProvider } from './brevo/brevo-provider.ts';
import { createOutboxProvider } from './outbox/outbox-provider.ts';
import { createSmtpProvider } from './smtp/smtp-provider.ts';
import { withWebhookDestinations } from './webhooks/webhook-destinations.ts';

/**
 * The only place that branches on MAIL_PROVIDER. Called at start: a setting the provider cannot work
 * without stops the start with one line naming it, instead of a 500 on every lead. `journal.budgets` holds
 * the provider account's rate budget, shared by every node (docs/delivery.md). The destinations are
 * the provider's, then one per WEBHOOK_URLS entry (docs/webhooks.md); alerts also go to
 * ALERT_WEBHOOK_URL (docs/delivery.md, « Alerts »). The journal also holds the key that signs the
 * newsletter's links in its e-mails (docs/consent.md). `identity` is the agency's, as the e-mails
 * speak it (src/features/site/mail-identity.ts builds it; the kernel's mail cannot import a
 * feature).
 */
export function createProvider(
  config: Config,
  journal: ProviderJournal,
  identity: MailIdentity,
): Provider {
  return withAlertWebhook(
    withWebhookDestinations(mailProvider(config, journal, identity), config),
    config,
  );
}

/** What a provider keeps in the journal database: its rate budgets, the links' signing key. */
export type ProviderJournal = Pick<Store, 'budgets'> &
  Partial<Pick<Store, 'answers'>> & {
    newsletter: Pick<Store['newsletter'], 'signingKey'> &
      Partial<Pick<Store['newsletter'], 'earlierRequests'>>;
  };

function mailProvider(
  config: Config,
  { budgets, newsletter, answers }: ProviderJournal,
  identity: MailIdentity,
): Provider {
  const { mail } = config;
  const settings = {
    from: mail.from,
    identity,
    agencyEmail: mail.agencyEmail,
    siteUrl: config.siteUrl,
    businessHours: parseBusinessHours(config.workspace.businessHours),
    links: createNewsletterLinks(config.siteUrl, () => newsletter.signingKey()),
    ...(newsletter.earlierRequests && {
      earlierRequests: newsletter.earlierRequests.bind(newsletter),
    }),
    ...(answers && { answers }),
    ...(mail.inboundAddress && { inboundAddress: mail.inboundAddress }),
  };
  const by = `MAIL_PROVIDER=${mail.provider}`;
  switch (mail.provider) {
    case 'outbox':
      return createOutboxProvider(join(config.dataDir, 'outbox'), settings);
    case 'smtp':
      return createSmtpProvider(required(mail.smtpUrl, 'SMTP_URL', by), settings, mail.timeoutMs);
    case 'brevo':
      // Spec 4.2 promises a newsletter subscription: without its list there is nowhere to put it.
      required(mail.brevo.newsletterListId, 'BREVO_NEWSLETTER_LIST_ID', by);
      return createBrevoProvider(
        config,
        required(mail.brevo.apiKey, 'BREVO_API_KEY', by),
        budgets,
        settings,
      );
  }
}
