import type { LeadWork } from './lead-work.ts';
import type { TeamSummaryJournal } from './team-summary.ts';

/** The part of the journal's port that inbox owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /** docs/workspace.md: the team's work on each lead, its inbox queries and search. */
    readonly work: LeadWork;
    /**
     * docs/workspace.md, « Le point du matin »: the team's daily summary, sent once a business day.
     */
    readonly teamSummaries: TeamSummaryJournal;
  }
}
