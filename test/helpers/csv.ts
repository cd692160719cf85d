/**
 * A careful RFC 4180 reader (csv-parse is not installed): a field is quoted or not, a quoted field
 * may hold the separator, CR, LF and doubled quotes; records end with CRLF or LF. Throws on a quote
 * inside an unquoted field, so a sloppy writer cannot pass.
 */
export function parseCsv(text: string, separator: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== separator && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`);
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === separator) {
      i += 1;
      continue;
    }
    if (text[i] === '\r') i += 1;
    if (text[i] === '\n' || i >= text.length) {
      i += 1;
      records.push(record);
      record = [];
      continue;
    }
    throw new Error(`unexpected character after a field at ${i}`);
  }
  return records;
}

/** The records after the header as objects keyed by the header's names. */
export const asObjects = ([header, ...rows]: string[][]) =>
  rows.map((row) => Object.fromEntries(header!.map((name, index) => [name, row[index]])));
