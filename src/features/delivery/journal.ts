import type { DeliveryAlerts } from './alerts.ts';
import type { RateBudgets } from './rate-budget.ts';

/** The part of the journal's port that delivery owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /**
     * docs/delivery.md, « Alerts »: the delivery alerts open now, one per cause (the workspace's
     * banner and dashboard read `open()`).
     */
    readonly alerts: DeliveryAlerts;
    /** Provider rate budgets shared by every node on the database. */
    readonly budgets: RateBudgets;
  }
}
