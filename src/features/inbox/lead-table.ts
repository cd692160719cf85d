import type { JournalEntry } from '../../kernel/journal/store.ts';
import { emailOf } from '../../kernel/lead/lead.ts';

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

export const MACHINE_HEADER: readonly string[] = [...SUMMARY_COLUMNS, 'payload', 'consent'];

/** Machine-friendly CSV rows: the person's fields as one JSON column, formulas neutralised. */
export async function* machineRows(
  entries: AsyncIterable<JournalEntry>,
): AsyncGenerator<unknown[]> {
  for await (const entry of entries) {
    yield [
      ...SUMMARY_COLUMNS.map((column) => summary(entry)[column]),
      JSON.stringify(entry.lead.data),
      entry.lead.consent ? JSON.stringify(entry.lead.consent) : '',
    ];
  }
}

/**
 * `leads export --format json`: the array `JSON.stringify(leads, null, 2)` would write, written a
 * lead at a time (docs/performance.md, « Exports »). The consent record travels with each lead
 * (docs/consent.md): proof outlives the journal.
 */
export async function* streamedJson(entries: AsyncIterable<JournalEntry>): AsyncGenerator<string> {
  let first = true;
  for await (const entry of entries) {
    const record = {
      ...summary(entry),
      payload: entry.lead.data,
      consent: entry.lead.consent ?? null,
    };
    yield `${first ? '[\n' : ',\n'}  ${JSON.stringify(record, null, 2).replace(/\n/g, '\n  ')}`;
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}
