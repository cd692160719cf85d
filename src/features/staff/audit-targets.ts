import { destinationLabel } from '../delivery/index.ts';
import { personName, WORK_STATUS_LABELS } from '../inbox/index.ts';
import { html, type HtmlValue } from './html.ts';
import type { StaffAuditEntry } from './staff.ts';
import type { WorkspaceContext } from './workspace-context.ts';

/**
 * How the trail's lines read (docs/workspace-security.md, "Audit trail"): what each target and
 * detail is.
 */
export interface AuditWords {
  target(entry: StaffAuditEntry): HtmlValue;
  detail(entry: StaffAuditEntry): string;
}

/**
 * The trail keeps ids (`lead:<id>`, `staff:<id>`, `person:<reference>`, workspace-context.ts); the
 * page names them in the team's words: a lead by its person's name, linked to its page, an account
 * by its name, a status, an assignee or a destination in French (« Le français partout »).
 */
export async function auditWords(
  context: WorkspaceContext,
  entries: readonly StaffAuditEntry[],
): Promise<AuditWords> {
  const leadIds = [
    ...new Set(
      entries.flatMap((entry) =>
        entry.target?.startsWith('lead:') ? [entry.target.slice('lead:'.length)] : [],
      ),
    ),
  ];
  const [leads, accounts] = await Promise.all([
    Promise.all(leadIds.map((id) => context.store.work.find(id))),
    context.store.staff.accounts(),
  ]);
  const leadNames = new Map(leadIds.map((id, index) => [id, leads[index]]));
  const staffNames = new Map(
    accounts.map((account) => [account.id, account.name || account.email]),
  );
  return {
    target(entry) {
      const [kind, id = ''] = (entry.target ?? '').split(/:(.*)/s);
      if (kind === 'lead') {
        const lead = leadNames.get(id);
        return lead
          ? html`<a href="/equipe/prospects/${id}">${personName(lead)}</a>`
          : 'un prospect effacé';
      }
      if (kind === 'staff') return staffNames.get(id) ?? 'un compte supprimé';
      if (kind === 'person') return `une personne (réf. ${id.slice(0, 8)})`;
      if (kind === 'message') return 'un message sans demande';
      return entry.target ?? '—';
    },
    detail({ action, detail }) {
      if (detail === null) return '';
      if (action === 'status-change') {
        return WORK_STATUS_LABELS[detail as keyof typeof WORK_STATUS_LABELS] ?? detail;
      }
      if (action === 'assign') return staffNames.get(detail) ?? 'un compte supprimé';
      if (action === 'replay') return destinationLabel(detail);
      return detail;
    },
  };
}
