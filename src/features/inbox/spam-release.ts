import type { Destination, StepTarget } from '../../kernel/lead/destination.ts';
import type { LeadStatus } from '../../kernel/lead/lead-status.ts';
import { newLeadSteps, type OptInSettings } from '../intake/index.ts';
import { isNewsletterSubscription } from '../newsletter/index.ts';
import { CONFIRMATION_LINK_TTL_MS } from '../newsletter/index.ts';
import type { JournalEntry, Store } from '../../kernel/journal/store.ts';

export type Release = { released: true; steps: StepTarget[] } | Refusal;

export type Refusal =
  | { released: false; why: 'unknown' }
  | { released: false; why: 'not-spam'; status: LeadStatus }
  /** Its double opt-in link would be dead on arrival: valid 7 days from the request (docs/consent.md). */
  | { released: false; why: 'link-expired' };

/**
 * A person the bot trap misjudged (docs/api-decisions.md, "Bot trap"): the `spam` lead gets the
 * steps the intake would have planned had it been let through, now, with these destinations. Its
 * consent record stays the one journaled with the request: the person agreed when they sent it.
 */
export async function releaseSpamLead(
  id: string,
  {
    store,
    destinations,
    newsletter,
    now = new Date(),
  }: {
    store: Pick<Store, 'find' | 'deliveries'>;
    destinations: readonly Destination[];
    newsletter: OptInSettings;
    now?: Date;
  },
): Promise<Release> {
  const entry = await store.find(id);
  if (entry?.status !== 'spam') return refusal(entry);
  const { lead } = entry;
  const age = now.getTime() - lead.receivedAt.getTime();
  if (newsletter.doubleOptIn && isNewsletterSubscription(lead) && age > CONFIRMATION_LINK_TTL_MS) {
    return { released: false, why: 'link-expired' };
  }
  const steps = await newLeadSteps(lead, destinations, newsletter);
  if (await store.deliveries.release(lead, steps, now)) return { released: true, steps };
  // Released (or erased) by another command since our read: theirs stands.
  return refusal(await store.find(id));
}

function refusal(entry: JournalEntry | undefined): Refusal {
  return entry === undefined
    ? { released: false, why: 'unknown' }
    : { released: false, why: 'not-spam', status: entry.status };
}
