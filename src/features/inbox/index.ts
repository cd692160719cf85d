/** What the other features use of inbox (docs/architecture.md). */
export { DELIVERY_LABELS, kindLabel } from './lead-views.ts';
export { ANSWERED_KINDS, promisedAnswerAt } from './answer-promise.ts';
export { DEFAULT_BUSINESS_HOURS, parseBusinessHours } from './business-hours.ts';
export type { BusinessHours } from './business-hours.ts';
export { workspaceCounts } from './workspace-counts.ts';
export { personName } from './lead-views.ts';
export { WORK_STATUS_LABELS } from './lead-work.ts';
