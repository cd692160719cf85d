import type { Destination } from '../../kernel/lead/destination.ts';
import { RefusedError } from '../../kernel/lead/errors.ts';
import { emailOf } from '../../kernel/lead/lead.ts';

/** One address on the opt-out list, known only by its reference (People.reference). */
export interface OptOutEntry {
  reference: string;
  addedAt: Date;
  /** Who added it: an agency member's name. */
  addedBy: string;
  /** Why, in the team's words (« demande d’effacement », « opposition par courrier »…). */
  reason: string | null;
}

/**
 * docs/workspace-privacy.md, « Liste d’opposition »: the addresses whose leads are journaled but
 * handed to no one. It keeps the address's salted hash only, so it outlives an erasure without
 * keeping the address.
 */
export interface OptOutList {
  /** Adds the address (again: keeps the first date); answers its reference. */
  add(address: string, entry: Omit<OptOutEntry, 'reference'>): Promise<string>;
  /** False when the reference was not on the list. */
  remove(reference: string): Promise<boolean>;
  find(address: string): Promise<OptOutEntry | undefined>;
  /** Which of these addresses are on the list (as given). */
  among(addresses: readonly string[]): Promise<Set<string>>;
  /** Newest first. */
  list(limit: number): Promise<OptOutEntry[]>;
}

/** A step's refusal for an address on the list: the lead page shows it beside the step. */
export const OPT_OUT_REFUSAL = 'non transmise : l’adresse est dans la liste d’opposition';

/**
 * The destination, refusing for good the leads of an address on the list (checked when the step
 * runs, so a lead already waiting, retried or replayed is held too). Taking an address off the
 * newsletter list is never held: it is what the person asked.
 */
export function withOptOut(destination: Destination, list: Pick<OptOutList, 'find'>): Destination {
  if (destination.optIn === 'withdraws') return destination;
  return {
    ...destination,
    async deliver(lead, signal) {
      if (await list.find(emailOf(lead))) throw new RefusedError(OPT_OUT_REFUSAL);
      return destination.deliver(lead, signal);
    },
  };
}
