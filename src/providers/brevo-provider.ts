import type { Config } from '../config.ts';
import { ConfigurationError, UpstreamError } from '../domain/errors.ts';
import type { Lead } from '../domain/lead.ts';
import type { MailSettings } from '../mail/mail-message.ts';
import { messagesFor } from '../mail/messages.ts';
import { createBrevoClient, type BrevoClient } from './brevo-client.ts';
import { contactPayload, upsertContact, type BrevoLists } from './brevo-contact.ts';
import { emailPayload, sendEmail } from './brevo-email.ts';
import type { DeliveryReceipt, Provider } from './provider.ts';

export interface BrevoProviderOptions {
  lists: BrevoLists;
  confirmationTemplateId?: number;
  mail: MailSettings & { from: string };
}

/**
 * MAIL_PROVIDER=brevo (issue 2): the contact goes to Brevo's CRM first (its answer says whether the
 * address was already known), then the e-mails of src/mail go out through `/smtp/email`. Every
 * failure leaves as UpstreamError whose cause says what Brevo answered; the intake turns it into
 * 502 upstream_error and a `failed` journal row that `leadgate leads replay` can retry safely.
 */
export class BrevoProvider implements Provider {
  readonly name = 'brevo';

  constructor(
    private readonly post: BrevoClient,
    private readonly options: BrevoProviderOptions,
  ) {}

  async deliver(lead: Lead, signal: AbortSignal): Promise<DeliveryReceipt> {
    // Spec 4.2 promises a newsletter subscription: without its list there is nowhere to put it.
    if (lead.kind === 'subscribe' && this.options.lists.newsletterListId === undefined) {
      throw new ConfigurationError('brevo is not configured: BREVO_NEWSLETTER_LIST_ID is not set');
    }
    const contact = await this.step('could not save the contact', () =>
      upsertContact(this.post, contactPayload(lead, this.options.lists), signal),
    );
    const details = [contact.detail];
    for (const message of messagesFor(lead, this.options.mail)) {
      const payload = emailPayload(lead.id, message, {
        from: this.options.mail.from,
        confirmationTemplateId: this.options.confirmationTemplateId,
      });
      const sent = await this.step(`could not send the ${message.role} e-mail`, () =>
        sendEmail(this.post, payload, signal),
      );
      details.push(`${message.role} ${sent}`);
    }
    return { existing: contact.existing, detail: `brevo: ${details.join('; ')}` };
  }

  async close(): Promise<void> {}

  private async step<T>(failure: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw new UpstreamError(`Brevo ${failure}`, { cause: error });
    }
  }
}

export function createBrevoProvider(config: Config, apiKey: string): BrevoProvider {
  const { mail } = config;
  const post = createBrevoClient({ apiKey, apiUrl: mail.brevo.apiUrl, timeoutMs: mail.timeoutMs });
  return new BrevoProvider(post, {
    lists: mail.brevo,
    confirmationTemplateId: mail.brevo.contactTemplateId,
    mail: { from: mail.from, agencyEmail: mail.agencyEmail, siteUrl: config.siteUrl },
  });
}
