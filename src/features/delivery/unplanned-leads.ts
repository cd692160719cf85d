import type { Deliveries } from '../../kernel/lead/deliveries.ts';
import { targetOf, type Destination } from '../../kernel/lead/destination.ts';

const BATCH = 100;

/**
 * Gives every lead journaled before delivery steps existed the steps this process's destinations
 * plan for it (docs/delivery.md, « Leads from before delivery steps »), as the intake would have.
 * Run by the background dispatcher only: it runs with the server's configuration, while a `leads
 * replay` from a bare environment would plan them for the wrong provider.
 */
export async function planUnplannedLeads(
  deliveries: Deliveries,
  destinations: readonly Destination[],
  now: Date,
): Promise<number> {
  let planned = 0;
  for (;;) {
    const leads = await deliveries.unplanned(BATCH);
    for (const lead of leads) {
      const steps = destinations.filter((d) => d.appliesTo(lead)).map(targetOf);
      await deliveries.plan(lead, steps, now);
    }
    planned += leads.length;
    if (leads.length < BATCH) return planned;
  }
}
