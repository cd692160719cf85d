import type { NewsletterJournal } from './newsletter.ts';
import type { OptOutList } from './opt-out.ts';

/** The part of the journal's port that newsletter owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /** docs/consent.md: the newsletter's double opt-in and unsubscriptions. */
    readonly newsletter: NewsletterJournal;
    /** docs/workspace-privacy.md, « Liste d’opposition »: addresses whose leads go to no one. */
    readonly optOut: OptOutList;
  }
}
