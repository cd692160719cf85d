import { leadKindOf } from '../../kernel/schemas/lead-kinds.ts';
import { truncatedNetwork } from '../../kernel/lead/consent.ts';
import type { Destination, StepTarget } from '../../kernel/lead/destination.ts';
import { targetOf } from '../../kernel/lead/destination.ts';
import type { Lead } from '../../kernel/lead/lead.ts';
import { CONFIRMATION_LINK_TTL_MS, type NewsletterLinks } from './newsletter-links.ts';

/** A subscription request as the journal keeps it, and what became of its link. */
export interface SubscriptionState {
  lead: Lead;
  /** When the person followed the confirmation link (the proof of double opt-in). */
  confirmedAt: Date | null;
  /** When the person withdrew (unsubscribed, or refused through the confirmation e-mail). */
  withdrawnAt: Date | null;
}

/**
 * The newsletter's double opt-in in the journal (docs/consent.md). For MAIL_PROVIDER=outbox or
 * smtp, which keep no list, the confirmations not withdrawn are the list.
 */
export interface NewsletterJournal {
  /** The key that signs the links, kept in the database so every node signs alike. */
  signingKey(): Promise<string>;
  /** On the list now: a confirmation of this address not withdrawn since. */
  isSubscribed(email: string): Promise<boolean>;
  /**
   * How many subscription requests of this address (spam set aside) arrived before `before`: the
   * agency's notification of a repeated request says it is one (docs/consent.md).
   */
  earlierRequests(email: string, before: Date): Promise<number>;
  /** The subscription lead `leadId`, or undefined when the journal keeps no such lead. */
  stateOf(leadId: string): Promise<SubscriptionState | undefined>;
  /**
   * Records, once, that the lead's link was followed (when, from which network) and plans `steps`
   * in the same transaction: false when the link was used already or the request withdrawn.
   */
  confirm(
    lead: Lead,
    at: Date,
    network: string | null,
    steps: readonly StepTarget[],
  ): Promise<boolean>;
  /**
   * Withdraws the address: every confirmation of it not withdrawn yet (planning `steps` for each
   * such lead) and the request `lead` itself if still unconfirmed. Returns the leads that were on
   * the list.
   */
  withdraw(lead: Lead, at: Date, steps: readonly StepTarget[]): Promise<string[]>;
}

/** A subscription to the newsletter: the kind whose Brevo list is the newsletter's. */
export function isNewsletterSubscription(lead: Pick<Lead, 'kind'>): boolean {
  return leadKindOf(lead.kind).brevoList.setting === 'newsletterListId';
}

export type ConfirmOutcome = 'confirm' | 'confirmed' | 'invalid' | 'expired' | 'used';
export type UnsubscribeOutcome = 'unsubscribe' | 'unsubscribed' | 'invalid';

export interface NewsletterDependencies {
  journal: NewsletterJournal;
  links: NewsletterLinks;
  destinations: readonly Destination[];
  /** Delivers the steps just planned for these leads (at once in DELIVERY=sync, else wakes the loop). */
  handOff(leadIds: readonly string[]): Promise<void>;
  now?: () => Date;
}

/** What following a newsletter link means (docs/consent.md, "Double opt-in" and "Unsubscribe"). */
export function createNewsletter({
  journal,
  links,
  destinations,
  handOff,
  now = () => new Date(),
}: NewsletterDependencies) {
  const stepsFor = (lead: Lead, phase: Destination['optIn']) =>
    destinations.filter((d) => d.optIn === phase && d.appliesTo(lead)).map(targetOf);

  async function subscription(purpose: 'confirm' | 'unsubscribe', token: string) {
    const leadId = await links.leadOf(purpose, token);
    return leadId === undefined ? 'invalid' : await journal.stateOf(leadId);
  }

  /** Where a confirmation link stands, with its request when it may be used. */
  async function confirmable(token: string) {
    const state = await subscription('confirm', token);
    const outcome = ((): Exclude<ConfirmOutcome, 'confirmed'> => {
      if (state === 'invalid') return 'invalid';
      // An erased request (`people forget`, retention) has nothing left to confirm.
      if (state === undefined) return 'expired';
      if (state.confirmedAt || state.withdrawnAt) return 'used';
      const age = now().getTime() - state.lead.receivedAt.getTime();
      return age > CONFIRMATION_LINK_TTL_MS ? 'expired' : 'confirm';
    })();
    return { outcome, lead: typeof state === 'object' ? state.lead : undefined };
  }

  return {
    /** Where a confirmation link stands; `confirm` when it may be used. */
    async checkConfirmation(token: string): Promise<Exclude<ConfirmOutcome, 'confirmed'>> {
      return (await confirmable(token)).outcome;
    },

    /** Follows a confirmation link: the address joins the list (its `awaits` steps are planned). */
    async confirm(token: string, clientAddress: string | undefined): Promise<ConfirmOutcome> {
      const { outcome, lead } = await confirmable(token);
      if (outcome !== 'confirm' || !lead) return outcome;
      const network = clientAddress ? truncatedNetwork(clientAddress) : null;
      const steps = stepsFor(lead, 'awaits');
      if (!(await journal.confirm(lead, now(), network, steps))) return 'used';
      if (steps.length > 0) await handOff([lead.id]);
      return 'confirmed';
    },

    /** Where an unsubscribe link stands: any link we signed may unsubscribe, however old. */
    async checkUnsubscribe(token: string): Promise<Exclude<UnsubscribeOutcome, 'unsubscribed'>> {
      return (await links.leadOf('unsubscribe', token)) === undefined ? 'invalid' : 'unsubscribe';
    },

    /** RFC 8058 one-click unsubscribe: the address leaves the list; running it twice is harmless. */
    async unsubscribe(token: string): Promise<UnsubscribeOutcome> {
      const state = await subscription('unsubscribe', token);
      if (state === 'invalid') return 'invalid';
      // Nothing kept about this request any more: nothing left to send to, nothing to withdraw.
      if (state === undefined) return 'unsubscribed';
      await this.withdraw(state.lead);
      return 'unsubscribed';
    },

    /** Takes the address of `lead` off the list (and its pending requests), as a link would. */
    async withdraw(lead: Lead): Promise<void> {
      const steps = stepsFor(lead, 'withdraws');
      const withdrawn = await journal.withdraw(lead, now(), steps);
      if (withdrawn.length > 0 && steps.length > 0) await handOff(withdrawn);
    },
  };
}

export type Newsletter = ReturnType<typeof createNewsletter>;
