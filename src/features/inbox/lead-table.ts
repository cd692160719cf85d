import type { JournalEntry } from '../../kernel/journal/store.ts';
import { emailOf } from '../../kernel/lead/lead.ts';
import { leadCsv } from './lead-csv.ts';
import { LEAD_KINDS } from '../../kernel/schemas/lead-kinds.ts';

/** The journal columns every export starts with. */
export function summary(entry: JournalEntry) {
  return {
    id: entry.lead.id,
    receivedAt: entry.lead.receivedAt.toISOString(),
    kind: entry.lead.kind,
    email: emailOf(entry.lead),
    status: entry.status,
    attempts: entry.attempts,
    lastError: entry.lastError ?? '',
  };
}

const SUMMARY_COLUMNS: readonly (keyof ReturnType<typeof summary>)[] = [
  'id',
  'receivedAt',
  'kind',
  'email',
  'status',
  'attempts',
  'lastError',
];

/** Machine-friendly CSV: comma, the person's fields as one JSON column, formulas neutralised. */
export function machineCsv(entries: JournalEntry[]): string {
  const rows = entries.map((entry) => [
    ...SUMMARY_COLUMNS.map((column) => summary(entry)[column]),
    JSON.stringify(entry.lead.data),
    entry.lead.consent ? JSON.stringify(entry.lead.consent) : '',
  ]);
  return leadCsv([[...SUMMARY_COLUMNS, 'payload', 'consent'], ...rows], 'machine');
}

// Fields kept out of the per-field columns: formData becomes one column per question, consent one column.
const NOT_A_FIELD = new Set(['formData', 'consent']);

/** Every field of the spec's request schemas, in endpoint then declaration order, each once. */
function specFields(): string[] {
  const fields = LEAD_KINDS.flatMap((endpoint) =>
    Object.keys((endpoint.schema as { properties: object }).properties),
  );
  return [...new Set(fields)].filter((field) => !NOT_A_FIELD.has(field));
}

function answersOf(entry: JournalEntry): Record<string, string> {
  const formData = (entry.lead.data as { formData?: unknown }).formData;
  return formData && typeof formData === 'object' ? (formData as Record<string, string>) : {};
}

/**
 * docs/operations.md: the `excel` flavour of src/features/inbox/lead-csv.ts, one column per field
 * of the spec and one per audit question.
 */
export function excelCsv(entries: JournalEntry[]): string {
  const fields = specFields();
  const questions = [...new Set(entries.flatMap((entry) => Object.keys(answersOf(entry))))];
  const header = [...SUMMARY_COLUMNS, ...fields, ...questions, 'consent'];
  const rows = entries.map((entry) => {
    const data = entry.lead.data as Record<string, unknown>;
    const answers = answersOf(entry);
    return [
      ...SUMMARY_COLUMNS.map((column) => summary(entry)[column]),
      ...fields.map((field) => (data[field] === undefined ? '' : String(data[field]))),
      ...questions.map((question) => answers[question] ?? ''),
      entry.lead.consent ? JSON.stringify(entry.lead.consent) : '',
    ];
  });
  return leadCsv([header, ...rows], 'excel');
}
