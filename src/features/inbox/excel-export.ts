import { answerDueAt } from './answer-promise.ts';
import type { BusinessHours } from './business-hours.ts';
import { DELIVERY_LABELS, kindLabel } from './lead-views.ts';
import { WORK_STATUS_LABELS, type InboxEntry } from './lead-work.ts';
import { frenchDateTime, frenchNumericDateTime } from '../../kernel/lead/french-date.ts';
import { CHANNEL_LABELS, labelledFields, sectorLabel } from '../../kernel/schemas/field-labels.ts';
import { LEAD_KINDS, type LeadKindDescriptor } from '../../kernel/schemas/lead-kinds.ts';
import { requestPhone } from '../../kernel/schemas/phone-number.ts';

/*
 * docs/operations.md, « Exporting leads »: what the team opens in a French spreadsheet. One lead
 * per row, headers from the schemas' French labels (one column per label: the three kinds' e-mail
 * fields are one « Adresse e-mail »), dates in Paris time as French Excel reads a date
 * (« 02/12/2026 09:16 »), the team's work (status, assignee, answer due, last note), a phone as the
 * team writes it (« 06 12 34 56 78 », which no spreadsheet turns into a number losing its 0), the
 * consent as a sentence. The machine CSV and JSON keep the API's names (lead-table.ts).
 */

/** What the rows need besides the leads: names of the team, the promise's hours, the notes. */
export interface ExcelExportContext {
  staffNames: ReadonlyMap<string, string>;
  hours: BusinessHours;
  lastNotes(leadIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** « 02/12/2026 09:16 », Paris time: a date and time French Excel and LibreOffice read as one. */
export function excelDate(date: Date | undefined): string {
  return date ? frenchNumericDateTime(date) : '';
}

/**
 * A phone as the team writes it; a foreign one from France's international prefix (« 00 32 470 … »),
 * since a cell starting with « + » would be neutralised as a formula (lead-csv.ts).
 */
function phoneCell(kind: LeadKindDescriptor, data: object): string {
  const display = requestPhone(data, kind.fields)?.display ?? '';
  return display.startsWith('+') ? `00 ${display.slice(1)}` : display;
}

function fieldCell(kind: LeadKindDescriptor, field: string, data: Record<string, unknown>): string {
  if (field === kind.fields.phone) return phoneCell(kind, data);
  const value = data[field];
  if (value === undefined || value === null) return '';
  if (field === kind.questionnaire?.sector && typeof value === 'string') return sectorLabel(value);
  if (field === kind.questionnaire?.answers && typeof value === 'object') {
    return Object.entries(value)
      .map(([question, answer]) => `${question} : ${String(answer)}`)
      .join('\n');
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** « Accepté le 2 décembre 2026 à 9 h 16 (texte version 3), par : formulaire du site, page /contact. » */
function consentCell(entry: InboxEntry): string {
  const { consent } = entry.lead;
  if (!consent) return 'Non enregistré (demande antérieure au recueil du consentement)';
  const page = consent.page ? `, page ${consent.page}` : '';
  return `Accepté le ${frenchDateTime(consent.givenAt)} (texte version ${consent.version}), par : ${CHANNEL_LABELS[consent.channel]}${page}.`;
}

/** Each label of the kinds' fields once, and for each kind which of its fields it shows. */
function fieldColumns(): { label: string; fields: Map<string, string> }[] {
  const columns = new Map<string, Map<string, string>>();
  for (const kind of LEAD_KINDS) {
    for (const { name, label } of labelledFields(kind)) {
      // The prefix is part of the phone's cell; the consent is a sentence of its own.
      if (name === kind.fields.phoneCountryCode || name === 'consent') continue;
      if (!columns.has(label)) columns.set(label, new Map());
      columns.get(label)!.set(kind.kind, name);
    }
  }
  return [...columns].map(([label, fields]) => ({ label, fields }));
}

const FIELD_COLUMNS = fieldColumns();

export const EXCEL_HEADER: readonly string[] = [
  'Reçue le',
  'Type',
  ...FIELD_COLUMNS.map((column) => column.label),
  'Statut',
  'Attribuée à',
  'Réponse due avant',
  'Dernière note',
  'Livraison',
  'Consentement',
  'Référence',
];

function excelRow(
  entry: InboxEntry,
  context: ExcelExportContext,
  notes: ReadonlyMap<string, string>,
): unknown[] {
  const kind = LEAD_KINDS.find((each) => each.kind === entry.lead.kind)!;
  const data = entry.lead.data as Record<string, unknown>;
  const { assignee } = entry.work;
  return [
    excelDate(entry.lead.receivedAt),
    kindLabel(entry.lead.kind),
    ...FIELD_COLUMNS.map(({ fields }) => {
      const field = fields.get(entry.lead.kind);
      return field === undefined ? '' : fieldCell(kind, field, data);
    }),
    WORK_STATUS_LABELS[entry.work.status],
    assignee ? (context.staffNames.get(assignee) ?? 'Compte supprimé') : '',
    excelDate(answerDueAt(entry, context.hours)),
    notes.get(entry.lead.id) ?? '',
    DELIVERY_LABELS[entry.status],
    consentCell(entry),
    entry.lead.id,
  ];
}

/** Leads read together, so their last notes take one query. */
const BATCH = 200;

/** The rows of the « CSV pour Excel », as the leads are read (lead-csv.ts, streamedCsv). */
export async function* excelRows(
  entries: AsyncIterable<InboxEntry>,
  context: ExcelExportContext,
): AsyncGenerator<unknown[]> {
  let batch: InboxEntry[] = [];
  const flush = async function* () {
    const notes = await context.lastNotes(batch.map((entry) => entry.lead.id));
    for (const entry of batch) yield excelRow(entry, context, notes);
    batch = [];
  };
  for await (const entry of entries) {
    batch.push(entry);
    if (batch.length >= BATCH) yield* flush();
  }
  yield* flush();
}
