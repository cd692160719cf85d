import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SECTORS } from '../../../src/kernel/schemas/sectors.ts';
import { loadIdentity, SAMPLE_IDENTITY_FILE } from '../../../src/features/site/agency.ts';
import { runLeadgate } from '../../scale/leadgate-node.ts';

/*
 * docs/site.md "L'identité de l'agence": the identity is one YAML file, checked by a schema at build
 * and start; a mistake is one French line giving the file, the line and the field.
 */

const root = mkdtempSync(join(tmpdir(), 'leadgate-identity-'));
mkdirSync(join(root, 'images'));
cpSync(join(SAMPLE_IDENTITY_FILE, '../images/logo.svg'), join(root, 'images/logo.svg'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SAMPLE = readFileSync(SAMPLE_IDENTITY_FILE, 'utf8');
let counter = 0;

/** The sample with one edit, written beside a copy of its images. */
function edited(from: string | RegExp, to: string): string {
  expect(SAMPLE).toMatch(from);
  const file = join(root, `agency-${++counter}.yaml`);
  writeFileSync(file, SAMPLE.replace(from, to));
  return file;
}

function problemOf(file: string): string {
  try {
    loadIdentity(file);
  } catch (error) {
    expect((error as Error).name).toBe('IdentityFileError');
    return (error as Error).message;
  }
  throw new Error('no problem reported');
}

const lineOf = (text: string) => SAMPLE.slice(0, SAMPLE.indexOf(text)).split('\n').length;

describe('a mistake in the identity file is one French line with its line and field', () => {
  it.each([
    {
      mistake: 'a SIRET too short',
      from: '912 345 678 00014',
      to: '912 345',
      field: 'legal.siret',
      says: 'SIRET de 14 chiffres',
    },
    {
      mistake: 'a postal code written as a number',
      from: "postalCode: !exemple '69002'",
      to: 'postalCode: 69002',
      field: 'legal.address.postalCode',
      says: 'code postal de 5 chiffres',
    },
    {
      mistake: 'a misspelt field',
      from: 'tagline:',
      to: 'tagine:',
      field: 'tagine',
      says: 'champ inconnu',
    },
    {
      mistake: 'an unknown sector',
      from: 'sectors: [btp]',
      to: 'sectors: [plombiers]',
      field: 'references[2].sectors[0]',
      says: `l’un des secteurs ${SECTORS.join(', ')}`,
    },
    {
      mistake: 'a brand colour too pale for white text (WCAG AA)',
      from: "brandColor: '#1d4ed8'",
      to: "brandColor: '#facc15'",
      field: 'brandColor',
      says: 'contraste 1,5:1',
    },
    {
      // docs/workspace.md, « Répondre »: only the placeholders the composer fills.
      mistake: 'an answer template with an unknown placeholder',
      from: 'subject: Votre demande à {agence}',
      to: 'subject: Votre demande à {agency}',
      field: 'mail.answers[0].subject',
      says: 'dont les seules accolades sont {prénom}, {service}, {agence}',
    },
    {
      mistake: 'an answer template for a sign-up, which asks no answer',
      from: 'kinds: [contact]',
      to: 'kinds: [subscribe]',
      field: 'mail.answers[0].kinds[0]',
      says: 'type de demande qui attend une réponse',
    },
    {
      mistake: 'a logo file that is not in images/',
      from: 'logo: logo.svg',
      to: 'logo: lumen.png',
      field: 'logo',
      says: 'le fichier lumen.png manque',
    },
  ])('$mistake', ({ from, to, field, says }) => {
    const file = edited(from, to);
    const message = problemOf(file);
    expect(message).toContain(`${file}, ligne ${lineOf(from)}`);
    expect(message).toContain(`${field} : `);
    expect(message).toContain(says);
    expect(message).not.toContain('\n');
  });

  it('a screenshot without its alt text names the missing field', () => {
    const anchor = '    services: [site-sur-mesure, referencement-local]\n';
    const file = edited(anchor, `${anchor}    screenshot:\n      file: logo.png\n`);
    expect(problemOf(file)).toMatch(
      /ligne \d+ : references\[2\]\.screenshot : le champ « alt » manque/,
    );
  });

  it('a sector whose audit has no price names the sector and how to price it (docs/site.md, "Tarifs")', () => {
    const file = edited(
      `    sectors: [${SECTORS.join(', ')}]\n`,
      `    sectors: [${SECTORS.filter((sector) => sector !== 'boutiques').join(', ')}]\n`,
    );
    expect(problemOf(file)).toBe(
      `${file}, ligne ${lineOf('prices:')} : prices : aucun tarif ne dit ce que coûte l’audit du secteur boutiques : ajoutez-le aux sectors du tarif de l’audit (ex. « sectors: [${SECTORS.join(', ')}] », et « price: gratuit » s’il ne coûte rien)`,
    );
  });

  it('a sector’s audit with two prices points to the second', () => {
    const anchor = '    services: [site-sur-mesure]\n';
    const file = edited(anchor, `${anchor}    sectors: [btp]\n`);
    expect(problemOf(file)).toMatch(
      /ligne \d+ : prices\[3\]\.sectors : l’audit du secteur btp a déjà un tarif \(prices\[1\]\) : gardez-en un seul$/,
    );
  });

  it('a French text with « : » unquoted says to quote it, on its line', () => {
    const file = edited('tagline: Agence web de proximité', "tagline: L'atelier : web");
    expect(problemOf(file)).toBe(
      `${file}, ligne ${lineOf('tagline:')} : un texte contient « : » (deux-points suivi d’une espace) : mettez tout le texte entre guillemets droits ("…")`,
    );
  });

  it('straight French apostrophes need no quoting', () => {
    const file = edited('tagline: Agence web de proximité', "tagline: L'atelier web de l'Ouest");
    expect(loadIdentity(file).agency.tagline).toBe("L'atelier web de l'Ouest");
  });

  // A child `leadgate build` compiles the sources with tsx before it reads the file: 10 to 20 s on
  // a loaded 2-core machine (docs/quality.md, « Waits sized for a loaded machine »).
  const CHILD_BUILD = { timeout: 120_000 };
  /** `leadgate build` with this identity file, in a process of its own: the file is read when the site's modules load. */
  const buildWith = async (file: string) => {
    const { code, errors } = await runLeadgate(['build'], {
      AGENCY_FILE: file,
      DIST_DIR: join(root, 'dist'),
      LEADGATE_BUNDLE: '0',
    });
    return { code, errors };
  };

  it(
    '`leadgate build` prints that one line, no stack trace, and exits with code 2',
    CHILD_BUILD,
    async () => {
      const file = edited('912 345 678 00014', '912');
      expect(await buildWith(file)).toEqual({
        code: 2,
        errors: `Identité de l’agence invalide : ${file}, ligne ${lineOf('siret:')} : legal.siret : doit être un SIRET de 14 chiffres (ex. « 912 345 678 00014 »)\n`,
      });
    },
  );

  it(
    '`leadgate build` refuses a service page without its price, in one line',
    CHILD_BUILD,
    async () => {
      const file = edited('    services: [site-sur-mesure]\n', '');
      expect(await buildWith(file)).toEqual({
        code: 2,
        errors: `Identité de l’agence invalide : ${file} : prices : aucun tarif pour la page /services/site-sur-mesure : ajoutez « site-sur-mesure » aux services d’un tarif (« price: sur devis » si vous n’affichez pas de prix)\n`,
      });
    },
  );
});
