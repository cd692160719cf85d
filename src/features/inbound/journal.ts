import type { InboundJournal } from './inbound-journal.ts';

/** The part of the journal's port that inbound owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /** docs/inbound.md: the prospects' messages and what bounces say of their addresses. */
    readonly inbound: InboundJournal;
  }
}
