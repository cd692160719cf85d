import type { Config } from '../../kernel/config.ts';
import type { AgencyAlert } from '../../features/delivery/alerts.ts';
import type { Destination } from '../../kernel/lead/destination.ts';
import {
  MisconfiguredError,
  RefusedError,
  UnreachableError,
  UpstreamError,
} from '../../kernel/lead/errors.ts';
import type { Provider } from '../../features/delivery/provider.ts';
import { BudgetExhaustedError, type RateBudgets } from '../../features/delivery/rate-budget.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { senderOf } from '../../kernel/mail/mail-message.ts';
import { isNewsletterSubscription } from '../../features/newsletter/newsletter.ts';
import { LEAD_KINDS, leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import { brevoGet, checkBrevoAccount } from './brevo-account-check.ts';
import { classifyBrevoError, type BrevoCall } from './brevo-answers.ts';
import { BrevoError, createBrevoClient, type BrevoClient } from './brevo-client.ts';
import { contactPayload, removeFromList, saveContact, type BrevoLists } from './brevo-contact.ts';
import { emailPayload, sendEmail } from './brevo-email.ts';
import type { MailMessage } from '../../kernel/mail/mail-message.ts';
import { createCallBudget } from './call-budget.ts';
import { redisRateBudgets } from './redis-rate-budgets.ts';
import {
  mailDestinations,
  sendAlertEmail,
  type ProviderMailSettings,
  type SendMail,
} from '../mail-destinations.ts';

export interface BrevoProviderOptions {
  lists: BrevoLists;
  confirmationTemplateId?: number;
  mail: ProviderMailSettings;
  /**
   * Deadline of one step: a wait for a budget slot, then the call, each within PROVIDER_TIMEOUT_MS
   * (docs/delivery.md, « Provider rate budgets »). Unset: the dispatcher's PROVIDER_TIMEOUT_MS.
   */
  stepTimeoutMs?: number;
  /** Ends the connection of a budget held in Redis. */
  closeBudgets?: () => void;
}

/**
 * MAIL_PROVIDER=brevo (docs/brevo.md): the contact goes to Brevo's CRM (`crm-contact`; a known
 * contact is only added to the list), the e-mails (src/kernel/mail/, built by each feature) go out
 * through `/smtp/email`; each is a step of its own (docs/delivery.md). What Brevo answered decides
 * the step (brevo-answers.ts): a refusal of this one address is RefusedError; the account or a
 * setting (an attribute, a list, the sender) is MisconfiguredError, retried and alerted once; the
 * rest is UpstreamError, retried. Each error's cause says what Brevo answered.
 */
export class BrevoProvider implements Provider {
  readonly name = 'brevo';
  readonly destinations: readonly Destination[];

  constructor(
    private readonly post: BrevoClient,
    private readonly options: BrevoProviderOptions,
  ) {
    const crm: Destination = {
      name: 'crm-contact',
      provider: this.name,
      lane: 'brevo:contacts',
      reachedThrough: REACHED_THROUGH,
      // It puts a subscription on the newsletter list: under double opt-in, once confirmed.
      optIn: 'awaits',
      appliesTo: () => true,
      deliver: async (lead, signal) => {
        const payload = contactPayload(lead, options.lists);
        const saved = await this.step(
          'could not save the contact',
          () => saveContact(post, payload, signal),
          {
            attributes: Object.keys(payload.attributes),
            ...(payload.listIds && { listSetting: leadKindOf(lead.kind).brevoList.variable }),
          },
        );
        return saved.detail;
      },
    };
    const unsubscribe: Destination = {
      name: 'newsletter-unsubscribe',
      provider: this.name,
      lane: 'brevo:contacts',
      reachedThrough: REACHED_THROUGH,
      optIn: 'withdraws',
      after: [crm.name],
      appliesTo: isNewsletterSubscription,
      deliver: (lead, signal) =>
        this.step(
          'could not remove the contact from the list',
          () => removeFromList(post, options.lists.newsletterListId, emailOf(lead), signal),
          { listSetting: 'BREVO_NEWSLETTER_LIST_ID' },
        ),
    };
    this.destinations = [
      crm,
      unsubscribe,
      ...mailDestinations(this.name, options.mail, this.send, REACHED_THROUGH),
    ].map((destination) => ({ ...destination, timeoutMs: options.stepTimeoutMs }));
  }

  sendMail(message: MailMessage, ref: { id: string; receivedAt: Date }, signal: AbortSignal) {
    return this.send(message, ref, signal);
  }

  alertAgency(alert: AgencyAlert, signal: AbortSignal): Promise<void> {
    return sendAlertEmail(this.send, this.options.mail, alert, signal);
  }

  /** Brevo's `DELETE /contacts/{identifier}` (the address, URL-encoded); 404 means already gone. */
  async forget(address: string, _leadIds: readonly string[], signal: AbortSignal): Promise<string> {
    try {
      await this.post(`/contacts/${encodeURIComponent(address)}`, undefined, signal, 'DELETE');
      return 'Brevo : contact supprimé.';
    } catch (error) {
      if (error instanceof BrevoError && error.status === 404) {
        return 'Brevo : aucun contact à cette adresse (déjà supprimé).';
      }
      throw new UpstreamError('Brevo could not delete the contact', { cause: error });
    }
  }

  checkAccount(signal: AbortSignal): Promise<string[]> {
    const lists: Record<string, number> = {};
    for (const { brevoList } of LEAD_KINDS) {
      const id = this.options.lists[brevoList.setting];
      if (id !== undefined) lists[brevoList.variable] = id;
    }
    return checkBrevoAccount(brevoGet(this.post, signal), {
      lists,
      sender: senderOf(this.options.mail).address,
    });
  }

  async close(): Promise<void> {
    this.options.closeBudgets?.();
  }

  private readonly send: SendMail = (message, ref, signal) => {
    const payload = emailPayload(ref.id, message, {
      sender: senderOf(this.options.mail, message),
      confirmationTemplateId: this.options.confirmationTemplateId,
    });
    return this.step(`could not send the ${message.role} e-mail`, async () => {
      try {
        return await sendEmail(this.post, payload, signal);
      } catch (error) {
        // The agency's notification replies to the visitor: Brevo refusing that address must not
        // keep the lead from the agency, which still reads it in the body (docs/brevo.md).
        if (!(payload.replyTo && isReplyToRefusal(error))) throw error;
        const withoutReplyTo = { ...payload, replyTo: undefined };
        return `${await sendEmail(this.post, withoutReplyTo, signal)} (sans Reply-To : adresse refusée par Brevo)`;
      }
    });
  };

  private async step<T>(failure: string, call: () => Promise<T>, sent: BrevoCall = {}): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof BudgetExhaustedError) throw error;
      if (!(error instanceof BrevoError))
        throw new UpstreamError(`Brevo ${failure}`, { cause: error });
      const { lists, confirmationTemplateId } = this.options;
      const meaning = classifyBrevoError(error, lists, confirmationTemplateId, sent);
      if (meaning.verdict === 'refused')
        throw new RefusedError(`Brevo ${failure}`, { cause: error });
      if (meaning.verdict === 'transient') {
        const Failure = error.status === undefined ? UnreachableError : UpstreamError;
        throw new Failure(`Brevo ${failure}`, { cause: error });
      }
      const said = `${error.status} ${error.code ?? ''}: ${error.reason ?? error.message}`;
      throw new MisconfiguredError(
        `Brevo ${failure}`,
        {
          cause: meaning.cause,
          fix: meaning.fix,
          said,
          ...(meaning.scope && { scope: meaning.scope }),
        },
        { cause: error },
      );
    }
  }
}

function isReplyToRefusal(error: unknown): boolean {
  return (
    error instanceof BrevoError && error.status === 400 && /reply-?to/i.test(error.reason ?? '')
  );
}

/** Where Brevo is reached: what an alert about Brevo not answering asks to check. */
const REACHED_THROUGH = 'BREVO_API_URL';

/** Brevo limits `/contacts` to about 10 calls a second per account; e-mails draw on their own budget. */
const budgetOf = (path: string) =>
  path.startsWith('/contacts') ? 'brevo:contacts' : 'brevo:email';

export function createBrevoProvider(
  config: Config,
  apiKey: string,
  budgets: RateBudgets,
  mail: ProviderMailSettings,
): BrevoProvider {
  const { brevo, timeoutMs } = config.mail;
  // docs/delivery.md: with REDIS_URL the budget lives in Redis, the database's kept as its fallback.
  const shared = config.redisUrl
    ? redisRateBudgets(config.redisUrl, config.database.connectTimeoutMs, budgets)
    : undefined;
  const budget = createCallBudget(
    shared ?? budgets,
    { 'brevo:contacts': brevo.contactsPerSecond, 'brevo:email': brevo.emailsPerSecond },
    budgetOf,
  );
  const post = createBrevoClient({ apiKey, apiUrl: brevo.apiUrl, timeoutMs, budget });
  return new BrevoProvider(post, {
    lists: brevo,
    confirmationTemplateId: brevo.contactTemplateId,
    mail,
    stepTimeoutMs: 2 * timeoutMs,
    closeBudgets: shared?.close,
  });
}
