import { targetOf, type Destination, type StepTarget } from '../../kernel/lead/destination.ts';
import { emailOf, type Lead } from '../../kernel/lead/lead.ts';
import { isNewsletterSubscription, type NewsletterJournal } from '../newsletter/index.ts';

/** docs/consent.md: NEWSLETTER_DOUBLE_OPT_IN, and who is on the list already. */
export interface OptInSettings {
  doubleOptIn: boolean;
  journal: Pick<NewsletterJournal, 'isSubscribed'>;
}

/**
 * The steps a lead gets when it enters delivery (at intake, or released from `spam`): one per
 * destination that applies (the confirmation cap is the step's own, at delivery). docs/consent.md:
 * under double opt-in a subscription is put on the list only once confirmed, and an address already
 * on the list is not asked to confirm again.
 */
export async function newLeadSteps(
  lead: Lead,
  destinations: readonly Destination[],
  newsletter: OptInSettings,
): Promise<StepTarget[]> {
  const awaiting = newsletter.doubleOptIn && isNewsletterSubscription(lead);
  const asks = awaiting && !(await newsletter.journal.isSubscribed(emailOf(lead)));
  const planned = (destination: Destination) => {
    switch (destination.optIn) {
      case 'asks':
        return asks;
      case 'awaits':
        return !awaiting;
      case 'withdraws':
        return false;
      default:
        return true;
    }
  };
  return destinations
    .filter((destination) => destination.appliesTo(lead) && planned(destination))
    .map(targetOf);
}
