/**
 * The one CSV writer for leads (docs/operations.md, "Export"): the `leads export` flavours and any
 * other export of the journal go through it, so the two rules below hold everywhere.
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
 * RFC 4180: a cell holding the delimiter, a quote, a CR or a LF is quoted (its quotes doubled). A
 * bare LF or CR left unquoted would end the record in the middle of a message, and the next line
 * would start a new row with whatever the visitor typed after it (`=1+1` included).
 */
function quoted(cell: string, delimiter: string): string {
  return cell.includes(delimiter) || /["\r\n]/.test(cell)
    ? `"${cell.replaceAll('"', '""')}"`
    : cell;
}

/** `rows[0]` is the header; every cell, header included, is guarded then quoted as needed. */
export function leadCsv(rows: readonly (readonly unknown[])[], flavour: CsvFlavour): string {
  const { delimiter, newline, bom } = FLAVOURS[flavour];
  const lines = rows.map((row) =>
    row
      .map((cell) =>
        quoted(
          neutraliseFormula(cell === null || cell === undefined ? '' : String(cell)),
          delimiter,
        ),
      )
      .join(delimiter),
  );
  return bom + lines.map((line) => line + newline).join('');
}
