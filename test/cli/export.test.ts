import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson } from '../helpers/api-assertions.ts';
import { buildTestApp, validAudit, validContact } from '../helpers/app.ts';
import { asObjects, parseCsv } from '../helpers/csv.ts';
import { runLeadgate } from '../helpers/leadgate-cli.ts';

describe('leads export for people and machines (docs/operations.md)', { timeout: 60_000 }, () => {
  let dataDir: string;
  const hostile = {
    ...validContact,
    PRENOM: '=HYPERLINK("http://evil.example","clic")',
    NOM: '@SUM(A1:A9)',
    DEMANDE: 'Café ; crème, "très" bien\nsur deux lignes',
    SMS__COUNTRY_CODE: '+33',
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'leadgate-export-'));
    const t = await buildTestApp({ env: { DATA_DIR: dataDir }, dialect: 'sqlite' });
    try {
      expect((await postJson(t.app, '/api/contact', hostile)).statusCode).toBe(200);
      const audit = {
        ...validAudit,
        formData: { 'Combien de chantiers par an ?': '-12', 'Avez-vous un site ?': 'Oui' },
      };
      expect((await postJson(t.app, '/api/audit', audit)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('--excel: BOM, ";", CRLF, French headers (one per label), the answers in one cell, formulas neutralised', async () => {
    const run = await runLeadgate(['leads', 'export', '--excel'], { DATA_DIR: dataDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.startsWith('\uFEFF')).toBe(true);
    expect(run.stdout).toContain('\r\n');
    const records = parseCsv(run.stdout.slice(1), ';');
    const header = records[0]!;
    for (const column of ['Prénom', 'Nom', 'Adresse e-mail', 'Projet', 'Secteur', 'Téléphone'])
      expect(header).toContain(column);
    for (const column of ['PRENOM', 'email', 'payload', 'Indicatif du téléphone'])
      expect(header).not.toContain(column);
    expect(records.every((record) => record.length === header.length)).toBe(true);

    // Oldest first, as the journal received them.
    const [contact, audit] = asObjects(records);
    expect(contact).toMatchObject({
      Type: 'Contact',
      Prénom: `'${hostile.PRENOM}`,
      Nom: `'${hostile.NOM}`,
      'Adresse e-mail': hostile.EMAIL,
      Projet: hostile.DEMANDE,
      'Réponses au questionnaire': '',
    });
    expect(audit).toMatchObject({
      Type: 'Audit',
      'Adresse e-mail': 'paul@example.fr',
      Secteur: 'Artisans et entreprises du BTP',
      'Réponses au questionnaire': 'Combien de chantiers par an ? : -12\nAvez-vous un site ? : Oui',
      Projet: '',
    });
  });

  it('--format csv keeps its machine shape (",", JSON payload) with formulas neutralised too', async () => {
    const run = await runLeadgate(['leads', 'export', '--format', 'csv'], { DATA_DIR: dataDir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.startsWith('\uFEFF')).toBe(false);
    const [contact] = asObjects(parseCsv(run.stdout, ','));
    expect(JSON.parse(contact!.payload!)).toMatchObject({ PRENOM: hostile.PRENOM });
    expect(contact!.lastError).toBe('');
    // A cell that itself starts with a formula character is neutralised.
    const cells = parseCsv(run.stdout, ',').flat();
    expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
  });
});
