/** What the other features use of inbox (docs/architecture.md). */
export { DELIVERY_LABELS, kindLabel } from './lead-views.ts';
