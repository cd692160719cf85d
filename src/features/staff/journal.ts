import type { StaffJournal } from './staff.ts';

/** The part of the journal's port that staff owns (docs/architecture.md, "The journal"). */
declare module '../../kernel/journal/store.ts' {
  interface Store {
    /** docs/workspace-security.md: the agency's team, its sessions and the audit trail. */
    readonly staff: StaffJournal;
  }
}
