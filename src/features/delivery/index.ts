/** What the other features use of delivery (docs/architecture.md). */
export { summarizeBacklog } from './backlog.ts';
export type { BacklogSummary } from './backlog.ts';
export { describeError, withDeadline } from './deadline.ts';
export type { Dispatcher } from './dispatcher.ts';
export type { OutgoingMail, Provider } from './provider.ts';
export { afterFailure } from './retry-policy.ts';
export type { RetryPolicy } from './retry-policy.ts';
export { deliveryNotice } from './alert-banner.ts';
export type { DeliveryNotice } from './alert-banner.ts';
export { destinationLabel } from './destination-labels.ts';
