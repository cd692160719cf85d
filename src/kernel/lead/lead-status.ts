import type { StepStatus } from './deliveries.ts';

/**
 * A lead's status is its worst step's (docs/delivery.md, "Lead status"): `dead` when any step was
 * given up, else `failed` when any is being retried, else `pending` when any waits for its first
 * attempt, else `refused` when a destination refused it for good (an invalid address: the other
 * steps went through, and the agency sees which one did not), else `delivered` (every step `done`,
 * or the lead had none). `spam`: a site
 * form's bot trap caught it (docs/api-decisions.md, "Bot trap"); it has no step, so nothing ever
 * delivers it. `leads list --status` filters on it and `leads status` counts it, in this order, so
 * both name the same leads.
 */
export const LEAD_STATUSES = ['pending', 'failed', 'dead', 'refused', 'delivered', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export function leadStatusOf(steps: readonly StepStatus[]): LeadStatus {
  if (steps.includes('dead')) return 'dead';
  if (steps.includes('retrying')) return 'failed';
  if (steps.includes('pending')) return 'pending';
  if (steps.includes('refused')) return 'refused';
  return 'delivered';
}
