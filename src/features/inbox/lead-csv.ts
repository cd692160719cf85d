import { setImmediate as nextTurn } from 'node:timers/promises';
import { stringify } from 'csv-stringify/sync';

/**
 * The one CSV writer for leads (docs/operations.md, "Exporting leads"): the `leads export` flavours
 * and any other export of the journal go through it, so the two rules below hold everywhere.
 *
 * - `machine`: `,`, LF between records, no BOM (scripts, imports);
 * - `excel`: what a French spreadsheet opens right: UTF-8 BOM (or accents come out garbled), `;`
 *   (a French locale's list separator), CRLF.
 */
export type CsvFlavour = 'machine' | 'excel';

const FLAVOURS = {
  machine: { delimiter: ',', newline: '\n', bom: '' },
  excel: { delimiter: ';', newline: '\r\n', bom: '\uFEFF' },
} as const;

/**
 * A cell a spreadsheet would run as a formula (OWASP "CSV injection": =, +, -, @, tab, CR) gets a
 * leading apostrophe: a visitor's "=HYPERLINK(…)" is shown, never evaluated. A phone written
 * "+33 6…" therefore shows as '+33 6…, the price of never evaluating what a stranger typed.
 */
export function neutraliseFormula(cell: string): string {
  return /^[=+\-@\t\r]/.test(cell) ? `'${cell}` : cell;
}

/**
 * `rows[0]` is the header; every cell, header included, is guarded then quoted as needed.
 * csv-stringify quotes a cell holding the delimiter, a quote or the record delimiter; with CRLF
 * records a bare LF or CR would stay unquoted, end the record in the middle of a message, and start
 * a new row with whatever the visitor typed after it (`=1+1` included): `quoted_match` quotes those
 * too (RFC 4180).
 */
export function leadCsv(rows: readonly (readonly unknown[])[], flavour: CsvFlavour): string {
  return FLAVOURS[flavour].bom + csvRecords(rows, flavour);
}

function csvRecords(rows: readonly (readonly unknown[])[], flavour: CsvFlavour): string {
  const { delimiter, newline } = FLAVOURS[flavour];
  const cells = rows.map((row) =>
    row.map((cell) => neutraliseFormula(cell === null || cell === undefined ? '' : String(cell))),
  );
  return stringify(cells, {
    delimiter,
    record_delimiter: newline,
    quoted_match: /[\r\n]/,
    eof: true,
  });
}

/** Rows written per chunk of a streamed export, between two turns given back to the event loop. */
const ROWS_PER_CHUNK = 100;

/**
 * The same CSV, written as it is read (docs/performance.md, « Exports »): the header, then a chunk
 * per ROWS_PER_CHUNK rows, each after a turn of the event loop, so an export of 100,000 leads holds
 * one chunk in memory and a lead POSTed meanwhile is answered between two chunks.
 */
export async function* streamedCsv(
  header: readonly string[],
  rows: AsyncIterable<readonly unknown[]>,
  flavour: CsvFlavour,
): AsyncGenerator<string> {
  yield leadCsv([header], flavour);
  let chunk: (readonly unknown[])[] = [];
  for await (const row of rows) {
    chunk.push(row);
    if (chunk.length < ROWS_PER_CHUNK) continue;
    yield csvRecords(chunk, flavour);
    chunk = [];
    await nextTurn();
  }
  if (chunk.length > 0) yield csvRecords(chunk, flavour);
}
