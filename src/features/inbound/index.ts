/** What the other features use of inbound (docs/architecture.md). */
export { inboundMarks, leadInboundSection, unmatchedSection } from './inbound-views.ts';
export type { InboundMessage } from './inbound-journal.ts';
