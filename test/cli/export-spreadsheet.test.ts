import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact } from '../helpers/app.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';

/*
 * docs/operations.md, "Exporting leads": the French-Excel file reads back, with a spreadsheet-grade
 * parser (Python's csv module), as exactly one record per lead, whatever line breaks the visitors
 * typed, and no cell of it starts with a formula character.
 */
const HOSTILE_TEXTS = [
  'a\n=1+1',
  'b\r=2+2',
  'c\r\n=3+3',
  'd ; e',
  'dit "bonjour"',
  '=HYPERLINK("http://evil.example")',
  '+33 6 12',
  '-12',
  '@SUM(A1)',
  '\t=tab',
  '\r=cr first',
  'Première ligne\nDeuxième ligne\n\nQuatrième',
];

/** Python's csv module, the reader closest to a spreadsheet's on this machine. */
function readWithPython(text: string, delimiter: string): string[][] {
  const dir = mkdtempSync(join(tmpdir(), 'leadgate-csv-'));
  try {
    const file = join(dir, 'export.csv');
    writeFileSync(file, text);
    const script = [
      'import csv, json, sys',
      "with open(sys.argv[1], newline='', encoding='utf-8-sig') as f:",
      '    print(json.dumps(list(csv.reader(f, delimiter=sys.argv[2], strict=True))))',
    ].join('\n');
    return JSON.parse(
      execFileSync('python3', ['-c', script, file, delimiter], { encoding: 'utf8' }),
    ) as string[][];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const FORMULA_START = /^[=+\-@\t\r]/;

describe(
  'leads export: line breaks stay inside their cell (docs/operations.md)',
  { timeout: 60_000 },
  () => {
    let dataDir: string;
    let leads = 0;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'leadgate-export-'));
      const t = await buildTestApp({ env: { DATA_DIR: dataDir }, dialect: 'sqlite' });
      try {
        for (const [index, text] of HOSTILE_TEXTS.entries()) {
          const contact = {
            ...validContact,
            EMAIL: `p${index}@example.fr`,
            DEMANDE: text,
            NOM: text,
          };
          expect((await postJson(t.app, '/api/contact', contact)).statusCode).toBe(200);
          leads++;
        }
        // Audit answers become columns: a question key with line breaks is a header cell.
        const audit = {
          ...validAudit,
          formData: { 'Une question\nsur deux lignes': 'x\n=1+1', '=Question\r?': 'Oui' },
        };
        expect((await postJson(t.app, '/api/audit', audit)).statusCode).toBe(200);
        leads++;
      } finally {
        await t.close();
      }
    });
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    for (const [flavour, args, delimiter] of [
      ['--excel', ['leads', 'export', '--excel'], ';'],
      ['--format csv', ['leads', 'export', '--format', 'csv'], ','],
    ] as const) {
      it(`${flavour}: one record per lead, every value whole, no cell starting a formula`, async () => {
        const run = await runLeadgate([...args], { DATA_DIR: dataDir });
        expect(run.code, run.stderr).toBe(0);
        const records = readWithPython(run.stdout, delimiter);
        expect(records).toHaveLength(leads + 1);
        const header = records[0]!;
        expect(records.every((record) => record.length === header.length)).toBe(true);
        expect(records.flat().filter((cell) => FORMULA_START.test(cell))).toEqual([]);
        const text = records.flat().join('\u0000');
        for (const value of HOSTILE_TEXTS) {
          const shown = FORMULA_START.test(value) ? `'${value}` : value;
          expect(text, JSON.stringify(value)).toContain(
            flavour === '--excel' ? shown : JSON.stringify(value).slice(1, -1),
          );
        }
      });
    }
  },
);
