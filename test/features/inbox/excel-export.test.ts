import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { postJson } from '../../helpers/api-assertions.ts';
import { useTestApp, validAudit, validContact } from '../../helpers/app.ts';
import { activeMember, FAST_SCRYPT, signIn } from '../staff/staff-session.ts';

/*
 * docs/operations.md, « Exporting leads »: the file the team opens in a French spreadsheet, read
 * back by LibreOffice Calc (Debian's libreoffice-calc) importing it as a French user's does (`;`,
 * UTF-8, language fr-FR), converted to a flat OpenDocument file whose cells say their type.
 */
const dir = mkdtempSync(join(tmpdir(), 'leadgate-excel-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Cell {
  type: string;
  text: string;
  /** A date cell's value, `2026-12-02T09:16:00`. */
  date?: string;
}

/** The sheet's rows as LibreOffice typed them (a repeated cell counts as its repeats). */
async function readWithCalc(csv: string): Promise<Cell[][]> {
  writeFileSync(join(dir, 'export.csv'), csv);
  // CSV import options: `;` (59), `"` (34), UTF-8 (76), from line 1, default columns, fr-FR (1036).
  await promisify(execFile)(
    'soffice',
    [
      `-env:UserInstallation=file://${join(dir, 'profile')}`,
      '--headless',
      '--infilter=CSV:59,34,76,1,,1036',
      '--convert-to',
      'fods',
      '--outdir',
      dir,
      join(dir, 'export.csv'),
    ],
    { timeout: 90_000 },
  );
  const parser = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => ['table:table-row', 'table:table-cell', 'text:p'].includes(name),
  });
  const document = parser.parse(readFileSync(join(dir, 'export.fods'), 'utf8'));
  const table = document['office:document']['office:body']['office:spreadsheet']['table:table'];
  const [sheet] = [table].flat() as Record<string, unknown>[];
  const rows = sheet!['table:table-row'] as Record<string, unknown>[];
  return rows
    .map((row) =>
      ((row['table:table-cell'] ?? []) as Record<string, unknown>[]).flatMap((cell) => {
        const paragraphs = (cell['text:p'] ?? []) as unknown[];
        const text = paragraphs
          .map((p) =>
            typeof p === 'object' ? String((p as { '#text'?: unknown })['#text'] ?? '') : String(p),
          )
          .join('\n');
        const one: Cell = {
          type: String(cell['@_office:value-type'] ?? 'empty'),
          text,
          ...(cell['@_office:date-value'] ? { date: String(cell['@_office:date-value']) } : {}),
        };
        return Array(Number(cell['@_table:number-columns-repeated'] ?? 1)).fill(one) as Cell[];
      }),
    )
    .filter((row) => row.some((cell) => cell.type !== 'empty'));
}

describe('« CSV pour Excel » read back by LibreOffice Calc in French (docs/operations.md)', () => {
  const t = useTestApp({ passwordCost: FAST_SCRYPT });

  it('French headers, Paris dates as dates, the phone intact, one e-mail column, the team’s work, no formula', async () => {
    const contact = {
      ...validContact,
      NOM: '=HYPERLINK("http://evil.example")',
      SMS: '0612345678',
      DEMANDE: 'Première ligne\nDeuxième ligne',
    };
    expect((await postJson(t.app, '/api/contact', contact)).statusCode).toBe(200);
    expect(
      (await postJson(t.app, '/api/audit', { ...validAudit, phone: '+32 470 12 34 56' }))
        .statusCode,
    ).toBe(200);
    await activeMember(t.app, t.store, 'anne@agence.fr', 'member');
    const { cookie } = await signIn(t.app, 'anne@agence.fr');
    const [anne] = await t.store.staff.accounts();
    const entries = [];
    for await (const entry of t.store.work.all({})) entries.push(entry);
    const marie = entries.find((entry) => entry.lead.kind === 'contact')!;
    const by = { id: anne!.id, name: 'anne' };
    await t.store.work.setStatus(marie.lead.id, 'en-cours', by, new Date());
    await t.store.work.assign(marie.lead.id, anne!.id, by, new Date());
    await t.store.work.addNote(marie.lead.id, 'Premier appel', by, new Date());
    await t.store.work.addNote(marie.lead.id, 'Rappeler jeudi', by, new Date());

    const answer = await t.app.inject({
      url: '/equipe/export.csv?vue=tous&format=excel',
      headers: { cookie },
    });
    expect(answer.statusCode).toBe(200);
    const [header, ...rows] = await readWithCalc(answer.body);
    const names = header!.map((cell) => cell.text);
    expect(names.slice(0, 2)).toEqual(['Reçue le', 'Type']);
    expect(names).toEqual(
      expect.arrayContaining([
        'Prénom',
        'Nom',
        'Téléphone',
        'Statut',
        'Attribuée à',
        'Réponse due avant',
        'Dernière note',
        'Consentement',
      ]),
    );
    expect(names.filter((name) => /mail/i.test(name))).toEqual(['Adresse e-mail']);
    expect(names.filter((name) => /^[A-Z_]+$/.test(name) || /^[a-z]+[A-Z]/.test(name))).toEqual([]);
    expect(rows).toHaveLength(2);
    const column = (row: Cell[], name: string) => row[names.indexOf(name)]!;
    const contactRow = rows.find((row) => column(row, 'Type').text === 'Contact')!;
    const auditRow = rows.find((row) => column(row, 'Type').text === 'Audit')!;

    // A Paris date French Calc reads as a date, at the Paris wall time of the lead's arrival.
    const received = column(contactRow, 'Reçue le');
    expect(received.type).toBe('date');
    const paris = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'Europe/Paris',
      dateStyle: 'short',
      timeStyle: 'short',
    })
      .format(marie.lead.receivedAt)
      .replace(' ', 'T');
    expect(received.date).toBe(`${paris}:00`);
    // The phone as text, its 0 kept; a foreign one from France's international prefix.
    expect(column(contactRow, 'Téléphone')).toMatchObject({
      type: 'string',
      text: '06 12 34 56 78',
    });
    expect(column(contactRow, 'Téléphone').text.replace(/\s/g, '')).toBe('0612345678');
    expect(column(auditRow, 'Téléphone')).toMatchObject({
      type: 'string',
      text: '00 32 470 12 34 56',
    });
    // One e-mail column for every kind.
    expect(column(contactRow, 'Adresse e-mail').text).toBe(validContact.EMAIL);
    expect(column(auditRow, 'Adresse e-mail').text).toBe(validAudit.email);
    // The team's work.
    expect(column(contactRow, 'Statut').text).toBe('En cours');
    expect(column(contactRow, 'Attribuée à').text).toBe('anne');
    expect(column(contactRow, 'Dernière note').text).toBe('Rappeler jeudi');
    expect(column(auditRow, 'Statut').text).toBe('Nouveau');
    expect(column(auditRow, 'Réponse due avant').type).toBe('date');
    expect(column(auditRow, 'Secteur').text).toBe('Artisans et entreprises du BTP');
    // A message's lines stay in its cell; a stranger's formula is text.
    expect(column(contactRow, 'Projet').text).toBe('Première ligne\nDeuxième ligne');
    expect(column(contactRow, 'Nom')).toMatchObject({ type: 'string', text: `'${contact.NOM}` });
    expect(rows.flat().filter((cell) => /^[=+\-@]/.test(cell.text))).toEqual([]);
    expect(column(contactRow, 'Consentement').text).toMatch(
      /^Accepté le \d+ \S+ 2026 à \d+\sh\s\d\d \(texte version .+\), par : API \(un programme\)\.$/,
    );
  }, 120_000);
});
