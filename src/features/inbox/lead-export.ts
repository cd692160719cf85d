import { excelRows, EXCEL_HEADER, type ExcelExportContext } from './excel-export.ts';
import { streamedCsv } from './lead-csv.ts';
import { MACHINE_HEADER, machineRows, streamedJson } from './lead-table.ts';
import { parseBusinessHours } from './business-hours.ts';
import type { InboxEntry } from './lead-work.ts';
import type { Store } from '../../kernel/journal/store.ts';

/** The three exports (docs/operations.md, "Exporting leads"): CSV, « CSV pour Excel », JSON. */
export type ExportFormat = 'csv' | 'excel' | 'json';

/**
 * An export written as its leads are read, a page at a time (docs/performance.md, « Exports »):
 * the workspace's « CSV » links and `leads export` send these chunks as they come.
 */
export function exportChunks(
  format: ExportFormat,
  entries: AsyncIterable<InboxEntry>,
  excel: ExcelExportContext,
): AsyncIterable<string> {
  if (format === 'json') return streamedJson(entries);
  if (format === 'excel') return streamedCsv(EXCEL_HEADER, excelRows(entries, excel), 'excel');
  return streamedCsv(MACHINE_HEADER, machineRows(entries), 'machine');
}

/** The team's names and the promise's hours, read once per export; the notes a batch at a time. */
export async function excelContext(
  store: Pick<Store, 'staff' | 'work'>,
  businessHours: string,
): Promise<ExcelExportContext> {
  const accounts = await store.staff.accounts();
  return {
    staffNames: new Map(accounts.map((account) => [account.id, account.name || account.email])),
    hours: parseBusinessHours(businessHours),
    lastNotes: (leadIds) => store.work.lastNotes(leadIds),
  };
}
